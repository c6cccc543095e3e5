/**
 * The second step of a change that goes live (a rule saved as active, a model activated): what
 * it will do, the button that really does it, and a way back. Shown in place of the first
 * button, so the change is never one click.
 */
export function ConfirmStep({ label, message, confirmText, busy, onConfirm, onCancel }: {
  label: string;
  message: string;
  confirmText: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <div class="confirm" role="alertdialog" aria-label={label}>
      <p>{message}</p>
      <button type="button" class="danger confirm-live" disabled={busy} onClick={onConfirm}>
        {busy ? 'Saving…' : confirmText}
      </button>{' '}
      <button type="button" class="secondary" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
