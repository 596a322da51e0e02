/**
 * The server's own words for each ErrorCode, in the three languages of the portal.
 * The language is the first of fr, ar, en found in Accept-Language; French otherwise.
 * French texts of docs/PRODUCT.md#validation-rules are quoted exactly.
 */
import type { ErrorCode } from '../../contract';

export type Language = 'fr' | 'ar' | 'en';

const MESSAGES: Record<ErrorCode, Record<Language, string>> = {
  kode_id_invalid: {
    fr: 'Veuillez saisir un KODE ID valide',
    ar: 'يرجى إدخال رمز KODE ID صالح',
    en: 'Please enter a valid KODE ID',
  },
  odometer_invalid: {
    fr: 'Veuillez saisir un kilometrage valide',
    ar: 'يرجى إدخال عدد كيلومترات صالح',
    en: 'Please enter a valid mileage',
  },
  repair_type_required: {
    fr: 'Veuillez choisir un type de panne',
    ar: 'يرجى اختيار نوع العطل',
    en: 'Please choose a repair type',
  },
  consent_required: {
    fr: 'Veuillez confirmer les informations avant de soumettre',
    ar: 'يرجى تأكيد المعلومات قبل الإرسال',
    en: 'Please confirm the information before submitting',
  },
  recorded_at_invalid: {
    fr: "La date de saisie n'est pas valide",
    ar: 'تاريخ الإدخال غير صالح',
    en: 'The entry date is not valid',
  },
  recorded_at_out_of_range: {
    fr: 'La date de saisie est trop ancienne ou dans le futur',
    ar: 'تاريخ الإدخال قديم جدًا أو في المستقبل',
    en: 'The entry date is too old or in the future',
  },
  note_too_long: {
    fr: 'La note est trop longue (1000 caractères au plus)',
    ar: 'الملاحظة طويلة جدًا (1000 حرف كحد أقصى)',
    en: 'The note is too long (1000 characters at most)',
  },
  vehicle_field_invalid: {
    fr: 'Les informations du véhicule ne sont pas valides',
    ar: 'معلومات المركبة غير صالحة',
    en: 'The vehicle information is not valid',
  },
  email_invalid: { fr: 'Adresse e-mail invalide', ar: 'البريد الإلكتروني غير صالح', en: 'Invalid email address' },
  email_required: { fr: "L'adresse e-mail est requise", ar: 'البريد الإلكتروني مطلوب', en: 'Email is required' },
  password_required: { fr: 'Le mot de passe est requis', ar: 'كلمة المرور مطلوبة', en: 'Password is required' },
  password_too_short: {
    fr: 'Le mot de passe doit contenir au moins 8 caractères',
    ar: 'يجب أن تحتوي كلمة المرور على 8 أحرف على الأقل',
    en: 'The password must have at least 8 characters',
  },
  password_too_long: {
    fr: 'Le mot de passe est trop long (128 caractères au plus)',
    ar: 'كلمة المرور طويلة جدًا (128 حرفًا كحد أقصى)',
    en: 'The password is too long (128 characters at most)',
  },
  passwords_mismatch: {
    fr: 'Les mots de passe ne correspondent pas',
    ar: 'كلمتا المرور غير متطابقتين',
    en: "password don't match",
  },
  full_name_required: { fr: 'Le nom complet est requis', ar: 'الاسم الكامل مطلوب', en: 'Full name is required' },
  phone_invalid: {
    fr: 'Numéro de téléphone invalide (0 suivi de 8 à 10 chiffres)',
    ar: 'رقم الهاتف غير صالح (0 متبوعًا بـ 8 إلى 10 أرقام)',
    en: 'Invalid phone number (0 followed by 8 to 10 digits)',
  },
  location_invalid: { fr: 'Localisation invalide', ar: 'الموقع غير صالح', en: 'Invalid location' },
  privacy_required: {
    fr: 'Vous devez accepter les conditions de confidentialité',
    ar: 'يجب عليك قبول شروط الخصوصية',
    en: 'You must accept the privacy conditions',
  },
  token_invalid: {
    fr: 'Lien de réinitialisation invalide ou expiré',
    ar: 'رابط إعادة التعيين غير صالح أو منتهي الصلاحية',
    en: 'Invalid or expired reset link',
  },
  current_password_required: {
    fr: 'Le mot de passe actuel est requis pour changer le mot de passe ou l’e-mail',
    ar: 'كلمة المرور الحالية مطلوبة لتغيير كلمة المرور أو البريد الإلكتروني',
    en: 'The current password is required to change the password or email',
  },
  current_password_wrong: {
    fr: 'Le mot de passe actuel est incorrect',
    ar: 'كلمة المرور الحالية غير صحيحة',
    en: 'The current password is incorrect',
  },
  invalid_credentials: {
    fr: 'E-mail ou mot de passe incorrect',
    ar: 'البريد الإلكتروني أو كلمة المرور غير صحيحة',
    en: 'Incorrect email or password',
  },
  email_taken: {
    fr: 'Impossible de créer un compte avec cette adresse e-mail',
    ar: 'تعذر إنشاء حساب بهذا البريد الإلكتروني',
    en: 'An account cannot be created with this email address',
  },
  session_expired: {
    fr: 'Votre session a expiré, veuillez vous reconnecter',
    ar: 'انتهت صلاحية جلستك، يرجى تسجيل الدخول من جديد',
    en: 'Your session has expired, please sign in again',
  },
  unauthorized: { fr: 'Authentification requise', ar: 'المصادقة مطلوبة', en: 'Authentication required' },
  forbidden_origin: { fr: 'Origine non autorisée', ar: 'مصدر غير مسموح به', en: 'Origin not allowed' },
  vehicle_not_found: {
    fr: 'Aucun véhicule ne correspond à ce KODE ID',
    ar: 'لا توجد مركبة بهذا الرمز KODE ID',
    en: 'No vehicle matches this KODE ID',
  },
  repair_type_not_found: {
    fr: "Ce type de panne n'existe pas",
    ar: 'نوع العطل هذا غير موجود',
    en: 'This repair type does not exist',
  },
  idempotency_conflict: {
    fr: 'Cette saisie a déjà été enregistrée avec un contenu différent',
    ar: 'تم تسجيل هذا الإدخال مسبقًا بمحتوى مختلف',
    en: 'This entry was already recorded with different content',
  },
  idempotency_key_invalid: {
    fr: "L'en-tête Idempotency-Key doit être un UUID",
    ar: 'يجب أن يكون الترويسة Idempotency-Key معرّف UUID',
    en: 'The Idempotency-Key header must be a UUID',
  },
  rate_limited: {
    fr: 'Trop de tentatives, veuillez réessayer plus tard',
    ar: 'محاولات كثيرة جدًا، يرجى المحاولة لاحقًا',
    en: 'Too many attempts, please try again later',
  },
  not_found: { fr: 'Ressource introuvable', ar: 'المورد غير موجود', en: 'Not found' },
  method_not_allowed: { fr: 'Méthode non autorisée', ar: 'الطريقة غير مسموح بها', en: 'Method not allowed' },
  malformed_json: {
    fr: 'Le corps de la requête n’est pas un JSON valide',
    ar: 'محتوى الطلب ليس JSON صالحًا',
    en: 'The request body is not valid JSON',
  },
  body_too_large: { fr: 'Requête trop volumineuse', ar: 'الطلب كبير جدًا', en: 'Request body too large' },
  unsupported_media_type: {
    fr: 'Type de contenu non pris en charge (application/json attendu)',
    ar: 'نوع المحتوى غير مدعوم (المتوقع application/json)',
    en: 'Unsupported content type (application/json expected)',
  },
  invalid_request: { fr: 'Requête invalide', ar: 'طلب غير صالح', en: 'Invalid request' },
  internal: {
    fr: 'Une erreur interne est survenue, veuillez réessayer',
    ar: 'حدث خطأ داخلي، يرجى المحاولة مرة أخرى',
    en: 'An internal error occurred, please try again',
  },
};

export function messageFor(code: ErrorCode, language: Language): string {
  return MESSAGES[code][language];
}

export function languageOf(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'fr';
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((param) => param.trim().startsWith('q='));
      return { lang: tag.trim().slice(0, 2).toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .sort((a, b) => b.q - a.q);
  const match = ranked.find((entry) => entry.lang === 'fr' || entry.lang === 'ar' || entry.lang === 'en');
  return (match?.lang as Language | undefined) ?? 'fr';
}
