// The sample checkout's own script (docs/web-sdk.md): the publishable key comes from the page's
// fragment (`#key=pk_test_…`, which the browser never sends to a server) or the form, and the API
// is this page's own origin. Nothing here reads a field before the shopper presses Pay.
/* global Ringfence */
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const keyFromFragment = new URLSearchParams(window.location.hash.slice(1)).get('key');

  function showError(error) {
    $('error').textContent = error instanceof Error ? error.message : String(error);
    $('error').hidden = false;
  }

  function start(publishableKey) {
    const client = Ringfence.init({ publishableKey, baseUrl: window.location.origin });
    window.ringfenceClient = client;
    $('device-id').textContent = client.deviceId;
    $('session-id').textContent = client.sessionId;
    $('identity').hidden = false;
    $('checkout').hidden = false;
    $('checkout').addEventListener('submit', (event) => {
      event.preventDefault();
      pay(client).catch(showError);
    });
  }

  async function pay(client) {
    const cipher = await client.encryptCard({
      pan: $('card-number').value,
      month: $('card-month').value,
      year: $('card-year').value,
      nameOnCard: $('card-name').value,
    });
    // The merchant's server would now send `paymentMethod: cipher` and `deviceId` in its checkpoint.
    $('cipher').textContent = JSON.stringify({ deviceId: client.deviceId, paymentMethod: cipher }, null, 2);
    $('result').hidden = false;
    client.track('checkout');
    await client.flush();
    $('events-status').textContent = 'The session\'s events were sent.';
    $('events-status').dataset.state = 'sent';
  }

  if (keyFromFragment) {
    start(keyFromFragment);
  } else {
    $('key-form').hidden = false;
    $('key-form').addEventListener('submit', (event) => {
      event.preventDefault();
      $('key-form').hidden = true;
      try {
        start($('publishable-key').value.trim());
      } catch (error) {
        showError(error);
      }
    });
  }
})();
