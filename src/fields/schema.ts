/**
 * The one field schema (CONTRACT.md §3): headers, filters, validation, import columns and docs
 * are all derived from this table. Field names are the wire names.
 *
 * Over 400 lines because it is a table: one entry per field (labels, types, flags, import aliases in
 * four languages); splitting it would scatter the one place field facts are declared.
 */

export type FieldType = 'String' | 'Date' | 'Number' | 'Boolean' | 'List';

/** Ranking field classes in rank order (CONTRACT §4): an index entry's class is its field's index here. */
export const RANK_CLASSES = ['name', 'organisation', 'email', 'phone', 'other'] as const;
export type RankClass = (typeof RANK_CLASSES)[number];

/**
 * How free text search makes tokens of a field (search/contact-tokens.ts):
 * - `name`: DisplayName: a person's name words with their nicknames and readings, or, with no name
 *   parts, the organisation's words (then of the organisation class);
 * - `organisation`: its words, unless DisplayName already is the organisation;
 * - `emails`: each address whole and its words; `phones`: each number's digit variants;
 * - `words`: the words of the value, or of each item of a list.
 */
export type TokenRule = 'name' | 'organisation' | 'emails' | 'phones' | 'words';

/** A field's facts; `N` its name (FieldDef: any field's). */
interface FieldFacts<N extends string> {
  readonly name: N;
  readonly label: string;
  readonly type: FieldType;
  /** Free text search looks at it (CONTRACT §4): set by `f` from `tokens` / `through`. */
  readonly searchable: boolean;
  readonly filterable: boolean;
  readonly sortable: boolean;
  /** Offered as Facets / Select options with counts. */
  readonly facetable: boolean;
  /** GetPredictiveOptions may suggest its values. */
  readonly predictive: boolean;
  /** Grid width in pixels. */
  readonly width: number;
  readonly align: 'Left' | 'Right' | 'Center';
  /** Display format hint for the grid (Date → `yyyy-MM-dd`, List → `, `-joined). */
  readonly format?: string;
  /** Ranking field class (CONTRACT §4: name > organisation > email > phone > other). */
  readonly rankClass?: RankClass;
  /**
   * How a searchable field is tokenised, and its place in a contact's token order (which is the
   * tokens' display order, rule `order`, and their entry numbering). Absent on a searchable field
   * matched through another (`through`).
   */
  readonly tokens?: { readonly order: number; readonly rule: TokenRule };
  /** A searchable field whose words are tokenised as part of another field (name parts: DisplayName). */
  readonly through?: string;
  /**
   * Import column aliases, matched case- and space-insensitively: Google Contacts (current and legacy
   * layouts) and Outlook CSV names in English, German, French and Spanish (src/io/columns.ts).
   */
  readonly aliases: readonly string[];
  /**
   * Emails, Phones and the address parts: the label an alias gives its values ("Mobile Phone" → mobile,
   * "Home City" → the home address). Aliases not named here carry no label of their own.
   */
  readonly aliasLabels?: Readonly<Record<string, string>>;
  /** A list of labels, parallel to the list field named (EmailLabels: Emails). */
  readonly labelsOf?: string;
  /** One of the one address's parts (AddressLabel labels them; an import's address columns fill them). */
  readonly addressPart?: boolean;
  /** Derived or maintained by the service; never taken from an import. */
  readonly readOnly?: boolean;
  /** Maximum characters per value (per item for List). */
  readonly maxLength: number;
}

/** A field with the defaults; searchable when it says how it is tokenised (`tokens` or `through`). */
const f = <const N extends string>(
  d: Partial<Omit<FieldFacts<N>, 'searchable'>> & Pick<FieldFacts<N>, 'name' | 'label' | 'type'>,
): FieldFacts<N> => ({
  searchable: Boolean(d.tokens || d.through),
  filterable: true,
  sortable: true,
  facetable: false,
  predictive: false,
  width: 150,
  align: 'Left',
  aliases: [],
  maxLength: 256,
  ...d,
});

export const FIELDS = [
  f({
    name: 'ContactId',
    label: 'Contact ID',
    type: 'String',
    width: 120,
    aliases: ['Id', 'Contact Id', 'UID'],
    maxLength: 64,
  }),
  f({
    name: 'NamePrefix',
    label: 'Name prefix',
    type: 'String',
    width: 80,
    maxLength: 64,
    aliases: ['Name Prefix', 'Prefix', 'Title', 'Anrede', 'Titre', 'Tratamiento'],
  }),
  f({
    name: 'FirstName',
    label: 'First name',
    type: 'String',
    predictive: true,
    rankClass: 'name',
    through: 'DisplayName',
    aliases: ['First Name', 'Given Name', 'Forename', 'Vorname', 'Prénom', 'Nombre'],
  }),
  f({
    name: 'MiddleName',
    label: 'Middle name',
    type: 'String',
    rankClass: 'name',
    through: 'DisplayName',
    aliases: [
      'Middle Name',
      'Additional Name',
      'Weitere Vornamen',
      'Deuxième prénom',
      'Segundo nombre',
    ],
  }),
  f({
    name: 'LastName',
    label: 'Last name',
    type: 'String',
    predictive: true,
    rankClass: 'name',
    through: 'DisplayName',
    aliases: ['Last Name', 'Family Name', 'Surname', 'Nachname', 'Nom', 'Apellidos'],
  }),
  f({
    name: 'NameSuffix',
    label: 'Name suffix',
    type: 'String',
    width: 80,
    maxLength: 64,
    aliases: ['Name Suffix', 'Suffix', 'Suffixe', 'Sufijo'],
  }),
  f({
    name: 'DisplayName',
    label: 'Name',
    type: 'String',
    rankClass: 'name',
    tokens: { order: 0, rule: 'name' },
    width: 220,
    readOnly: true,
    aliases: ['Display Name', 'Full Name', 'Name'],
  }),
  f({
    name: 'Nickname',
    label: 'Nickname',
    type: 'String',
    aliases: ['Nick Name', 'Spitzname', 'Surnom', 'Apodo'],
  }),
  // Reading names (furigana, pinyin): shown and exported; not searched as fields of their own, but
  // indexed as variant spellings (kana, romaji) of the name they read (search/readings.ts).
  f({
    name: 'PhoneticFirstName',
    label: 'Phonetic first name',
    type: 'String',
    aliases: ['Phonetic First Name', 'Given Name Yomi', 'First Name Yomi'],
  }),
  f({
    name: 'PhoneticLastName',
    label: 'Phonetic last name',
    type: 'String',
    aliases: ['Phonetic Last Name', 'Family Name Yomi', 'Last Name Yomi'],
  }),
  f({
    name: 'Organization',
    label: 'Organisation',
    type: 'String',
    predictive: true,
    facetable: true,
    rankClass: 'organisation',
    tokens: { order: 1, rule: 'organisation' },
    width: 200,
    aliases: [
      'Organisation',
      'Company',
      'Organization 1 - Name',
      'Organization Name',
      'Employer',
      'Firma',
      'Société',
      'Organización',
      'Compañía',
    ],
  }),
  f({
    name: 'Department',
    label: 'Department',
    type: 'String',
    aliases: [
      'Organization Department',
      'Organization 1 - Department',
      'Abteilung',
      'Service',
      'Departamento',
    ],
  }),
  f({
    name: 'JobTitle',
    label: 'Job title',
    type: 'String',
    predictive: true,
    rankClass: 'other',
    tokens: { order: 4, rule: 'words' },
    aliases: [
      'Job Title',
      'Organization Title',
      'Organization 1 - Title',
      'Position',
      'Titre du poste',
      'Fonction',
      'Puesto',
      'Cargo',
    ],
  }),
  f({
    name: 'Emails',
    label: 'Emails',
    type: 'List',
    sortable: false,
    rankClass: 'email',
    tokens: { order: 2, rule: 'emails' },
    width: 220,
    aliases: [
      'Email',
      'E-mail',
      'E-mail Address',
      'Email Address',
      'E-mail 1 - Value',
      'E-mail 2 Address',
      'E-mail 3 Address',
      'E-mail 2 - Value',
      'E-Mail-Adresse',
      'E-Mail 2: Adresse',
      'E-Mail: Adresse',
      'Adresse de messagerie',
      'Dirección de correo electrónico',
    ],
    maxLength: 254,
  }),
  // Parallel to Emails: EmailLabels[i] labels Emails[i] ('' for none); see docs/PROCESS-REQUEST.md "Labels".
  // Not filterable: a label means something only beside its email, and the filter panel stays short.
  f({
    name: 'EmailLabels',
    labelsOf: 'Emails',
    label: 'Email labels',
    type: 'List',
    sortable: false,
    filterable: false,
    width: 120,
    maxLength: 64,
    aliases: [],
  }),
  f({
    name: 'Phones',
    label: 'Phones',
    type: 'List',
    sortable: false,
    rankClass: 'phone',
    tokens: { order: 3, rule: 'phones' },
    width: 160,
    aliases: [
      'Phone',
      'Telephone',
      'Mobile Phone',
      'Business Phone',
      'Home Phone',
      'Phone 1 - Value',
      'Phone 2 - Value',
      'Primary Phone',
      'Other Phone',
      'Company Main Phone',
      'Business Fax',
      'Home Fax',
      'Other Fax',
      'Pager',
      'Car Phone',
      "Assistant's Phone",
      'Callback',
      'ISDN',
      'Radio Phone',
      'TTY/TDD Phone',
      'Telex',
      'Telefon geschäftlich',
      'Telefon privat',
      'Mobiltelefon',
      'Weiteres Telefon',
      'Haupttelefon',
      'Telefon Firma',
      'Fax geschäftlich',
      'Fax privat',
      'Autotelefon',
      'Téléphone (bureau)',
      'Téléphone (domicile)',
      'Tél. mobile',
      'Autre téléphone',
      'Téléphone principal',
      'Télécopie (bureau)',
      'Télécopie (domicile)',
      'Teléfono del trabajo',
      'Particular',
      'Móvil',
      'Otro teléfono',
      'Teléfono principal',
      'Fax del trabajo',
      'Fax particular',
      'Localizador',
    ],
    aliasLabels: {
      'Mobile Phone': 'mobile',
      'Business Phone': 'work',
      'Home Phone': 'home',
      'Primary Phone': 'main',
      'Other Phone': 'other',
      'Company Main Phone': 'main',
      'Business Fax': 'work fax',
      'Home Fax': 'home fax',
      'Other Fax': 'fax',
      Pager: 'pager',
      'Car Phone': 'car',
      "Assistant's Phone": 'assistant',
      Callback: 'callback',
      ISDN: 'isdn',
      'Radio Phone': 'radio',
      'TTY/TDD Phone': 'tty',
      Telex: 'telex',
      'Telefon geschäftlich': 'work',
      'Telefon privat': 'home',
      Mobiltelefon: 'mobile',
      'Weiteres Telefon': 'other',
      Haupttelefon: 'main',
      'Telefon Firma': 'main',
      'Fax geschäftlich': 'work fax',
      'Fax privat': 'home fax',
      Autotelefon: 'car',
      'Téléphone (bureau)': 'work',
      'Téléphone (domicile)': 'home',
      'Tél. mobile': 'mobile',
      'Autre téléphone': 'other',
      'Téléphone principal': 'main',
      'Télécopie (bureau)': 'work fax',
      'Télécopie (domicile)': 'home fax',
      'Teléfono del trabajo': 'work',
      Particular: 'home',
      Móvil: 'mobile',
      'Otro teléfono': 'other',
      'Teléfono principal': 'main',
      'Fax del trabajo': 'work fax',
      'Fax particular': 'home fax',
      Localizador: 'pager',
    },
    maxLength: 64,
  }),
  // Parallel to Phones, as EmailLabels is to Emails.
  f({
    name: 'PhoneLabels',
    labelsOf: 'Phones',
    label: 'Phone labels',
    type: 'List',
    sortable: false,
    filterable: false,
    width: 120,
    maxLength: 64,
    aliases: [],
  }),
  f({
    name: 'Websites',
    label: 'Websites',
    type: 'List',
    sortable: false,
    width: 200,
    maxLength: 2048,
    aliases: [
      'Website',
      'Web Page',
      'Web Site',
      'URL',
      'Website 1 - Value',
      'Webseite',
      'Page Web',
      'Página Web',
    ],
  }),
  f({
    name: 'Birthday',
    label: 'Birthday',
    type: 'Date',
    format: 'yyyy-MM-dd',
    width: 110,
    maxLength: 10,
    aliases: ['Birth Date', 'Date of Birth', 'Geburtstag', 'Anniversaire', 'Cumpleaños'],
  }),
  // One full address (the first the file gives a row; the others are named in the import report).
  f({
    name: 'AddressLabel',
    label: 'Address label',
    type: 'String',
    filterable: false,
    width: 80,
    maxLength: 64,
    aliases: [],
  }),
  f({
    name: 'Street',
    addressPart: true,
    label: 'Street',
    type: 'String',
    rankClass: 'other',
    tokens: { order: 5, rule: 'words' },
    width: 200,
    aliases: [
      'Address',
      'Business Street',
      'Home Street',
      'Other Street',
      'Address 1 - Street',
      'Street Address',
      'Straße geschäftlich',
      'Straße privat',
      'Weitere Straße',
      'Rue (bureau)',
      'Rue (domicile)',
      'Autre rue',
      'Calle del trabajo',
      'Calle del domicilio',
      'Otra calle',
    ],
    aliasLabels: {
      'Business Street': 'work',
      'Home Street': 'home',
      'Other Street': 'other',
      'Straße geschäftlich': 'work',
      'Straße privat': 'home',
      'Weitere Straße': 'other',
      'Rue (bureau)': 'work',
      'Rue (domicile)': 'home',
      'Autre rue': 'other',
      'Calle del trabajo': 'work',
      'Calle del domicilio': 'home',
      'Otra calle': 'other',
    },
  }),
  f({
    name: 'City',
    addressPart: true,
    label: 'City',
    type: 'String',
    predictive: true,
    facetable: true,
    rankClass: 'other',
    tokens: { order: 6, rule: 'words' },
    aliases: [
      'Town',
      'Business City',
      'Home City',
      'Other City',
      'Address 1 - City',
      'Locality',
      'Ort geschäftlich',
      'Ort privat',
      'Weiterer Ort',
      'Ville (bureau)',
      'Ville (domicile)',
      'Autre ville',
      'Ciudad de trabajo',
      'Ciudad de residencia',
      'Otra ciudad',
    ],
    aliasLabels: {
      'Business City': 'work',
      'Home City': 'home',
      'Other City': 'other',
      'Ort geschäftlich': 'work',
      'Ort privat': 'home',
      'Weiterer Ort': 'other',
      'Ville (bureau)': 'work',
      'Ville (domicile)': 'home',
      'Autre ville': 'other',
      'Ciudad de trabajo': 'work',
      'Ciudad de residencia': 'home',
      'Otra ciudad': 'other',
    },
  }),
  f({
    name: 'Region',
    addressPart: true,
    label: 'Region',
    type: 'String',
    predictive: true,
    facetable: true,
    rankClass: 'other',
    tokens: { order: 7, rule: 'words' },
    aliases: [
      'State',
      'Province',
      'County',
      'Business State',
      'Home State',
      'Other State',
      'Address 1 - Region',
      'Region geschäftlich',
      'Bundesland/Kanton privat',
      'Weiteres Bundesland/Kanton',
      'Dép/Région (bureau)',
      'Dép/Région (domicile)',
      'Autre dép/région',
      'Provincia o estado de trabajo',
      'Provincia o estado de residencia',
      'Otra provincia o estado',
    ],
    aliasLabels: {
      'Business State': 'work',
      'Home State': 'home',
      'Other State': 'other',
      'Region geschäftlich': 'work',
      'Bundesland/Kanton privat': 'home',
      'Weiteres Bundesland/Kanton': 'other',
      'Dép/Région (bureau)': 'work',
      'Dép/Région (domicile)': 'home',
      'Autre dép/région': 'other',
      'Provincia o estado de trabajo': 'work',
      'Provincia o estado de residencia': 'home',
      'Otra provincia o estado': 'other',
    },
  }),
  f({
    name: 'PostalCode',
    addressPart: true,
    label: 'Postal code',
    type: 'String',
    rankClass: 'other',
    tokens: { order: 8, rule: 'words' },
    width: 100,
    aliases: [
      'Zip',
      'Zip Code',
      'Postcode',
      'Business Postal Code',
      'Home Postal Code',
      'Other Postal Code',
      'Address 1 - Postal Code',
      'Postleitzahl geschäftlich',
      'Postleitzahl privat',
      'Weitere Postleitzahl',
      'Code postal (bureau)',
      'Code postal (domicile)',
      'Autre code postal',
      'Código postal del trabajo',
      'Código postal de residencia',
      'Otro código postal',
    ],
    aliasLabels: {
      'Business Postal Code': 'work',
      'Home Postal Code': 'home',
      'Other Postal Code': 'other',
      'Postleitzahl geschäftlich': 'work',
      'Postleitzahl privat': 'home',
      'Weitere Postleitzahl': 'other',
      'Code postal (bureau)': 'work',
      'Code postal (domicile)': 'home',
      'Autre code postal': 'other',
      'Código postal del trabajo': 'work',
      'Código postal de residencia': 'home',
      'Otro código postal': 'other',
    },
    maxLength: 32,
  }),
  f({
    name: 'Country',
    addressPart: true,
    label: 'Country',
    type: 'String',
    facetable: true,
    predictive: true,
    width: 80,
    aliases: [
      'Country Code',
      'Business Country/Region',
      'Home Country/Region',
      'Other Country/Region',
      'Address 1 - Country',
      'Country/Region',
      'Land/Region geschäftlich',
      'Land/Region privat',
      'Weiteres Land/Region',
      'Pays/Région (bureau)',
      'Pays/Région (domicile)',
      'Autre pays/région',
      'País o región del trabajo',
      'País o región de residencia',
      'Otro país o región',
    ],
    aliasLabels: {
      'Business Country/Region': 'work',
      'Home Country/Region': 'home',
      'Other Country/Region': 'other',
      'Land/Region geschäftlich': 'work',
      'Land/Region privat': 'home',
      'Weiteres Land/Region': 'other',
      'Pays/Région (bureau)': 'work',
      'Pays/Région (domicile)': 'home',
      'Autre pays/région': 'other',
      'País o región del trabajo': 'work',
      'País o región de residencia': 'home',
      'Otro país o región': 'other',
    },
    maxLength: 2,
  }),
  f({
    name: 'Tags',
    label: 'Tags',
    type: 'List',
    sortable: false,
    facetable: true,
    predictive: true,
    rankClass: 'other',
    tokens: { order: 9, rule: 'words' },
    aliases: [
      'Tag',
      'Labels',
      'Categories',
      'Group Membership',
      'Kategorien',
      'Catégories',
      'Categorías',
    ],
    maxLength: 64,
  }),
  f({
    name: 'Notes',
    label: 'Notes',
    type: 'String',
    sortable: false,
    filterable: true,
    width: 300,
    aliases: ['Note', 'Comments', 'Notizen', 'Notas'],
    maxLength: 4000,
  }),
  f({
    name: 'CreatedAt',
    label: 'Created',
    type: 'Date',
    format: 'yyyy-MM-dd',
    width: 110,
    readOnly: true,
    aliases: ['Created', 'Created At'],
    maxLength: 40,
  }),
  f({
    name: 'UpdatedAt',
    label: 'Updated',
    type: 'Date',
    format: 'yyyy-MM-dd',
    width: 110,
    readOnly: true,
    aliases: ['Updated', 'Updated At', 'Modified'],
    maxLength: 40,
  }),
] as const;

/** The field names, declared once: by the schema's entries above. */
export type FieldName = (typeof FIELDS)[number]['name'];
export type FieldDef = FieldFacts<FieldName>;

/** Label lists by name, each with the list it labels (EmailLabels: Emails). */
export const LABEL_LISTS: ReadonlyMap<FieldName, FieldName> = new Map(
  FIELDS.filter((d) => d.labelsOf).map((d) => [
    d.name,
    FIELDS.find((l) => l.name === d.labelsOf)!.name,
  ]),
);

/** The address's parts, in schema order. */
export const ADDRESS_PARTS: readonly FieldName[] = FIELDS.filter((d) => d.addressPart).map(
  (d) => d.name,
);

const byLowerName = new Map<string, FieldDef>(FIELDS.map((d) => [d.name.toLowerCase(), d]));

/** Case-insensitive field lookup (CONTRACT §5: member names match case-insensitively; field names likewise). */
export function field(name: string): FieldDef | undefined {
  return byLowerName.get(name.toLowerCase());
}

/** Key for matching import headers: case- and space-insensitive (also ignores `_` and `-`). */
export function columnKey(header: string): string {
  return header
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}
