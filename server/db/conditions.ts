/**
 * The partner conditions and privacy notice shown on /privacy-conditions (settings documents, simple
 * HTML: h2, h3, p, ul/li, strong, a; the PWA sanitises it before rendering).
 *
 * How a new version reaches existing databases: the seed writes each text when its key is missing,
 * and replaces a stored text only when it is exactly one that an earlier release shipped (its SHA-256
 * is in SHIPPED_BEFORE). A text an operator edited matches none of them and is never overwritten.
 * When you change a text here, add the SHA-256 of the version it replaces to SHIPPED_BEFORE.
 */
export type ConditionsKey = 'partner_conditions' | 'partner_conditions_ar' | 'partner_conditions_en';

const CONTACT_EMAIL = 'privacy@garage-portal.dz';
const UPDATED = '2026-06-01';

const FR = `<h2>Conditions d’utilisation et politique de confidentialité du portail partenaire</h2>
<p>Ces conditions s’appliquent aux garages partenaires du service de réparation automobile qui utilisent le portail partenaire (application web et tablette d’atelier). Elles décrivent les données personnelles que nous traitons, pourquoi, combien de temps, avec qui nous les partageons, vos droits et vos engagements en tant que partenaire. Dernière mise à jour : ${UPDATED}.</p>

<h3>1. Responsable du traitement et cadre légal</h3>
<p>Le service de réparation automobile est responsable du traitement des données collectées par le portail. Ce traitement est mis en œuvre conformément à la <strong>loi n° 18-07 du 10 juin 2018 relative à la protection des personnes physiques dans le traitement des données à caractère personnel</strong> et déclaré auprès de l’Autorité nationale de protection des données à caractère personnel (ANPDP).</p>

<h3>2. Données collectées</h3>
<ul>
<li><strong>Identité du garage et de son utilisateur</strong> : nom complet, adresse e-mail, photo de profil le cas échéant.</li>
<li><strong>Coordonnées</strong> : numéro de téléphone.</li>
<li><strong>Localisation de l’atelier</strong> : latitude, longitude et, si vous la saisissez, l’adresse.</li>
<li><strong>Données des véhicules</strong> : identifiant KODE ID, numéro VIN, marque, modèle et année.</li>
<li><strong>Relevés et interventions</strong> : kilométrage, type d’intervention, note éventuelle, date de saisie et date d’enregistrement.</li>
<li><strong>Données techniques de connexion</strong> : dates de connexion et de session, nécessaires à la sécurité du compte. Votre mot de passe n’est jamais conservé en clair.</li>
</ul>

<h3>3. Finalités</h3>
<ul>
<li>Créer et gérer votre compte partenaire et vous authentifier.</li>
<li>Enregistrer l’historique d’entretien et les kilométrages des véhicules, afin de rendre visibles les fraudes au compteur (un relevé inférieur au précédent ou anormalement élevé est signalé).</li>
<li>Vous localiser sur la carte du réseau et vous contacter au sujet de votre partenariat.</li>
<li>Assurer la sécurité du service et répondre aux obligations légales.</li>
</ul>

<h3>4. Base légale</h3>
<p>Le traitement repose sur votre <strong>consentement exprès</strong>, donné en acceptant ces conditions lors de l’inscription, et sur l’exécution du contrat de partenariat qui nous lie, conformément à la loi n° 18-07.</p>

<h3>5. Durée de conservation</h3>
<ul>
<li>Données du compte : pendant toute la durée du partenariat, puis trois ans après la fermeture du compte.</li>
<li>Relevés kilométriques et interventions : dix ans, car ils constituent l’historique du véhicule.</li>
<li>Sessions de connexion : trente jours au plus ; liens de réinitialisation du mot de passe : trente minutes, à usage unique.</li>
</ul>

<h3>6. Destinataires</h3>
<p>Les données sont accessibles uniquement au personnel habilité du service et à nos sous-traitants techniques (hébergement, envoi des e-mails), tenus à la confidentialité. Le dernier kilométrage connu d’un véhicule et sa date sont montrés aux garages partenaires qui consultent ce véhicule, <strong>sans l’identité du garage</strong> qui l’a saisi. Les données peuvent être communiquées aux autorités compétentes sur demande légale. Lorsque vous recherchez une adresse sur la carte, le texte saisi est envoyé au service de cartographie et de géocodage utilisé par le portail. Aucune donnée n’est vendue.</p>

<h3>7. Vos droits</h3>
<p>Conformément à la loi n° 18-07, vous disposez d’un <strong>droit d’accès</strong>, d’un <strong>droit de rectification</strong> et d’un <strong>droit d’opposition</strong> pour des motifs légitimes. Vous pouvez corriger votre profil depuis le portail ou nous écrire à <a href="mailto:${CONTACT_EMAIL}">${CONTACT_EMAIL}</a>. Vous pouvez également saisir l’ANPDP.</p>

<h3>8. Sécurité</h3>
<p>Les échanges sont chiffrés, les mots de passe sont protégés par un hachage résistant (argon2id), les sessions expirent et les accès sont limités aux personnes habilitées. Les saisies faites hors connexion restent sur la tablette jusqu’à leur envoi : protégez l’appareil par un code de verrouillage.</p>

<h3>9. Engagements du partenaire</h3>
<ul>
<li>Saisir des <strong>kilométrages exacts</strong>, lus sur le compteur du véhicule présent à l’atelier, et vérifier le KODE ID et le VIN avant de valider.</li>
<li><strong>Ne pas partager votre compte</strong> ni votre mot de passe avec des personnes non autorisées ; chaque utilisateur a son propre compte.</li>
<li>Savoir qu’une saisie validée est <strong>irréversible</strong> : elle ne peut être ni modifiée ni supprimée depuis le portail. Une erreur se signale au service, qui l’annote.</li>
<li>Toute saisie frauduleuse entraîne la suspension du partenariat.</li>
</ul>

<h3>10. Contact</h3>
<p>Pour toute question sur ces conditions ou sur vos données : <a href="mailto:${CONTACT_EMAIL}">${CONTACT_EMAIL}</a>.</p>`;

const AR = `<h2>شروط الاستخدام وسياسة الخصوصية لبوابة الشركاء</h2>
<p>تسري هذه الشروط على الورشات الشريكة لخدمة إصلاح المركبات التي تستعمل بوابة الشركاء (تطبيق الويب واللوحة الرقمية في الورشة). وهي تبيّن المعطيات الشخصية التي نعالجها، ولماذا، ومدة الاحتفاظ بها، ومع من نتقاسمها، وحقوقكم والتزاماتكم بصفتكم شريكًا. آخر تحديث: ${UPDATED}.</p>

<h3>1. المسؤول عن المعالجة والإطار القانوني</h3>
<p>خدمة إصلاح المركبات هي المسؤولة عن معالجة المعطيات التي تجمعها البوابة. وتتم هذه المعالجة طبقًا <strong>للقانون رقم 18-07 المؤرخ في 10 يونيو 2018 المتعلق بحماية الأشخاص الطبيعيين في مجال معالجة المعطيات ذات الطابع الشخصي</strong>، وهي مصرّح بها لدى السلطة الوطنية لحماية المعطيات ذات الطابع الشخصي.</p>

<h3>2. المعطيات المجمّعة</h3>
<ul>
<li><strong>هوية الورشة ومستعملها</strong>: الاسم الكامل، البريد الإلكتروني، وصورة الملف الشخصي عند وجودها.</li>
<li><strong>معلومات الاتصال</strong>: رقم الهاتف.</li>
<li><strong>موقع الورشة</strong>: خط العرض وخط الطول، والعنوان إن أدخلتموه.</li>
<li><strong>معطيات المركبات</strong>: المعرّف KODE ID، رقم VIN، العلامة، الطراز وسنة الصنع.</li>
<li><strong>القراءات والتدخلات</strong>: عدد الكيلومترات، نوع التدخل، ملاحظة عند الاقتضاء، تاريخ الإدخال وتاريخ التسجيل.</li>
<li><strong>المعطيات التقنية للاتصال</strong>: تواريخ الدخول والجلسات، اللازمة لأمن الحساب. لا تُحفظ كلمة المرور أبدًا بشكل واضح.</li>
</ul>

<h3>3. أغراض المعالجة</h3>
<ul>
<li>إنشاء حسابكم الشريك وتسييره والتحقق من هويتكم.</li>
<li>تسجيل سجل صيانة المركبات وقراءات عدادها لكشف التلاعب بالعداد (تُعلَّم كل قراءة أقل من السابقة أو مرتفعة بشكل غير معقول).</li>
<li>تحديد موقعكم على خريطة الشبكة والتواصل معكم بشأن الشراكة.</li>
<li>ضمان أمن الخدمة والوفاء بالالتزامات القانونية.</li>
</ul>

<h3>4. الأساس القانوني</h3>
<p>تقوم المعالجة على <strong>موافقتكم الصريحة</strong> التي تعطونها بقبول هذه الشروط عند التسجيل، وعلى تنفيذ عقد الشراكة الذي يربطنا، طبقًا للقانون رقم 18-07.</p>

<h3>5. مدة الاحتفاظ</h3>
<ul>
<li>معطيات الحساب: طوال مدة الشراكة، ثم ثلاث سنوات بعد غلق الحساب.</li>
<li>قراءات العداد والتدخلات: عشر سنوات، لأنها تشكّل تاريخ المركبة.</li>
<li>جلسات الدخول: ثلاثون يومًا على الأكثر؛ روابط إعادة تعيين كلمة المرور: ثلاثون دقيقة وتُستعمل مرة واحدة.</li>
</ul>

<h3>6. المرسَل إليهم</h3>
<p>لا يطّلع على المعطيات إلا المستخدمون المؤهّلون في الخدمة ومتعاملونا التقنيون (الاستضافة وإرسال البريد الإلكتروني) الملزمون بالسرية. تُعرض آخر قراءة معروفة للمركبة وتاريخها على الورشات الشريكة التي تبحث عن هذه المركبة، <strong>دون ذكر هوية الورشة</strong> التي أدخلتها. ويمكن إبلاغ المعطيات إلى السلطات المختصة بناءً على طلب قانوني. عند البحث عن عنوان في الخريطة، يُرسل النص المكتوب إلى خدمة الخرائط وتحديد المواقع التي تستعملها البوابة. لا تُباع أي معطيات.</p>

<h3>7. حقوقكم</h3>
<p>طبقًا للقانون رقم 18-07، لكم <strong>حق الولوج</strong> و<strong>حق التصحيح</strong> و<strong>حق الاعتراض</strong> لأسباب مشروعة. يمكنكم تصحيح ملفكم من البوابة أو مراسلتنا على <a href="mailto:${CONTACT_EMAIL}">${CONTACT_EMAIL}</a>. كما يمكنكم إخطار السلطة الوطنية لحماية المعطيات ذات الطابع الشخصي.</p>

<h3>8. الأمن</h3>
<p>المبادلات مشفّرة، وكلمات المرور محمية بتجزئة متينة (argon2id)، والجلسات تنتهي صلاحيتها، والولوج مقصور على الأشخاص المؤهّلين. تبقى الإدخالات المنجزة دون اتصال على اللوحة الرقمية إلى حين إرسالها: احموا الجهاز برمز قفل.</p>

<h3>9. التزامات الشريك</h3>
<ul>
<li>إدخال <strong>قراءات عداد صحيحة</strong> تُقرأ من عداد المركبة الموجودة في الورشة، والتحقق من KODE ID ورقم VIN قبل التأكيد.</li>
<li><strong>عدم مشاركة حسابكم</strong> أو كلمة المرور مع أشخاص غير مرخّص لهم؛ لكل مستعمل حسابه الخاص.</li>
<li>العلم بأن كل إدخال مؤكَّد <strong>نهائي لا رجعة فيه</strong>: لا يمكن تعديله ولا حذفه من البوابة، ويُبلَّغ عن أي خطأ إلى الخدمة التي تضيف ملاحظة عليه.</li>
<li>كل إدخال احتيالي يؤدي إلى تعليق الشراكة.</li>
</ul>

<h3>10. الاتصال</h3>
<p>لأي سؤال حول هذه الشروط أو حول معطياتكم: <a href="mailto:${CONTACT_EMAIL}">${CONTACT_EMAIL}</a>.</p>`;

const EN = `<h2>Partner portal terms of use and privacy policy</h2>
<p>These conditions apply to the partner garages of the vehicle repair service that use the partner portal (web app and workshop tablet). They describe which personal data we process, why, for how long, with whom we share it, your rights, and your commitments as a partner. Last updated: ${UPDATED}.</p>

<h3>1. Controller and legal framework</h3>
<p>The vehicle repair service is the controller of the data collected through the portal. This processing complies with <strong>Algerian Law No. 18-07 of 10 June 2018 on the protection of natural persons in the processing of personal data</strong> and is declared to the National Authority for the Protection of Personal Data (ANPDP).</p>

<h3>2. Data we collect</h3>
<ul>
<li><strong>Identity of the garage and its user</strong>: full name, email address, and profile picture where there is one.</li>
<li><strong>Contact details</strong>: phone number.</li>
<li><strong>Workshop location</strong>: latitude, longitude and, if you enter it, the address.</li>
<li><strong>Vehicle data</strong>: KODE ID, VIN, brand, model and year.</li>
<li><strong>Readings and repairs</strong>: odometer reading, type of work, optional note, the time of entry and the time it was stored.</li>
<li><strong>Technical sign-in data</strong>: sign-in and session times, needed to keep the account secure. Your password is never stored in readable form.</li>
</ul>

<h3>3. Purposes</h3>
<ul>
<li>Creating and managing your partner account and signing you in.</li>
<li>Recording vehicles’ service history and odometer readings so that odometer fraud becomes visible (a reading lower than the previous one, or implausibly high, is flagged).</li>
<li>Showing your workshop on the network map and contacting you about the partnership.</li>
<li>Keeping the service secure and meeting legal obligations.</li>
</ul>

<h3>4. Legal basis</h3>
<p>Processing rests on your <strong>express consent</strong>, given by accepting these conditions when you register, and on the performance of the partnership agreement between us, as provided by Law No. 18-07.</p>

<h3>5. Retention</h3>
<ul>
<li>Account data: for as long as the partnership lasts, then three years after the account is closed.</li>
<li>Odometer readings and repairs: ten years, as they form the vehicle’s history.</li>
<li>Sign-in sessions: thirty days at most; password reset links: thirty minutes, single use.</li>
</ul>

<h3>6. Recipients</h3>
<p>Only the service’s authorised staff and our technical processors (hosting, email delivery), bound by confidentiality, can access the data. A vehicle’s last known odometer reading and its date are shown to partner garages that look that vehicle up, <strong>without the identity of the garage</strong> that entered it. Data may be disclosed to the competent authorities upon a lawful request. When you search for an address on the map, the text you type is sent to the mapping and geocoding service the portal uses. No data is ever sold.</p>

<h3>7. Your rights</h3>
<p>Under Law No. 18-07 you have a <strong>right of access</strong>, a <strong>right to rectification</strong> and a <strong>right to object</strong> on legitimate grounds. You can correct your profile in the portal or write to us at <a href="mailto:${CONTACT_EMAIL}">${CONTACT_EMAIL}</a>. You may also refer a complaint to the ANPDP.</p>

<h3>8. Security</h3>
<p>Traffic is encrypted, passwords are protected with a strong hash (argon2id), sessions expire, and access is limited to authorised people. Entries made offline stay on the tablet until they are sent: protect the device with a screen lock.</p>

<h3>9. Partner obligations</h3>
<ul>
<li>Enter <strong>accurate odometer readings</strong>, read from the vehicle present in the workshop, and check the KODE ID and VIN before submitting.</li>
<li><strong>Do not share your account</strong> or password with anyone unauthorised; every user has their own account.</li>
<li>Understand that a submitted entry is <strong>irreversible</strong>: it cannot be edited or deleted from the portal. Report a mistake to the service, which annotates it.</li>
<li>Any fraudulent entry leads to suspension of the partnership.</li>
</ul>

<h3>10. Contact</h3>
<p>For any question about these conditions or your data: <a href="mailto:${CONTACT_EMAIL}">${CONTACT_EMAIL}</a>.</p>`;

export const PARTNER_CONDITIONS: Record<ConditionsKey, string> = {
  partner_conditions: FR,
  partner_conditions_ar: AR,
  partner_conditions_en: EN,
};

/**
 * SHA-256 (hex, of the UTF-8 text) of every text an earlier release shipped for each key. A stored
 * value with one of these hashes was never edited by an operator, so the seed may replace it.
 */
export const SHIPPED_BEFORE: Record<ConditionsKey, readonly string[]> = {
  // '<h2>Conditions</h2>', the scaffold's placeholder
  partner_conditions: ['a52e633fa7c833341d9f3e00b0192eeaf9d3c5800daf5f08c0ad7993ea0f3a6a'],
  // '<h2>الشروط</h2>'
  partner_conditions_ar: ['aa2c68ba57264fae0a171601259a65fbcb478f68575202cd2dc6d8cc974080f2'],
  // '<h2>Conditions</h2>'
  partner_conditions_en: ['a52e633fa7c833341d9f3e00b0192eeaf9d3c5800daf5f08c0ad7993ea0f3a6a'],
};
