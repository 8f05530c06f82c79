// The words marketing checks look for in link labels, URLs and page text, in the languages sites
// are written in (issue 25: a Japanese site linking お問い合わせ on every page was told visitors
// cannot reach it). Matching is linear: text is folded once (lowercase, accents removed), and each
// word is found with indexOf. A word in a Latin script is a whole word ("book" is not in
// "facebook"), or a prefix where it ends in * ("contact*" is in "contactez" and "contactenos");
// words in other scripts (CJK, Cyrillic, Arabic) are found anywhere, as they are written unspaced.

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Lowercase, accents removed (NFD marks dropped), so "Contáctenos" holds "contactenos". */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  return isAscii(lower) ? lower : lower.normalize('NFD').replace(/\p{M}/gu, '');
}

const LETTER = /[\p{L}\p{N}]/u;
const isLetter = (char: string | undefined) => char !== undefined && LETTER.test(char);

interface LatinWord {
  word: string;
  prefix: boolean;
}

export interface WordList {
  latin: readonly LatinWord[];
  /** Words in other scripts: found anywhere. */
  other: readonly string[];
}

/** A word list from words written naturally (folded here); "word*" is a prefix. */
export function words(...lists: ReadonlyArray<readonly string[]>): WordList {
  const folded = [...new Set(lists.flat().map(fold))];
  const latin = folded.filter(isAscii);
  return {
    latin: latin.map((w) => (w.endsWith('*') ? { word: w.slice(0, -1), prefix: true } : { word: w, prefix: false })),
    other: folded.filter((w) => !isAscii(w)),
  };
}

/** The first word of the list in already folded text, or undefined. */
export function findWord(folded: string, list: WordList): string | undefined {
  for (const word of list.other) if (folded.includes(word)) return word;
  for (const { word, prefix } of list.latin) {
    let from = 0;
    for (;;) {
      const at = folded.indexOf(word, from);
      if (at < 0) break;
      if (!isLetter(folded[at - 1]) && (prefix || !isLetter(folded[at + word.length]))) return word;
      from = at + 1;
    }
  }
  return undefined;
}

/** A URL's path (and fragment), percent-decoded where it decodes, folded: "/お問い合わせ/" as written. */
export function foldedPath(href: string, base: string): string {
  let path: string;
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
    path = `${url.pathname}${url.hash}`;
  } catch {
    return '';
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // Malformed escapes stay as written.
  }
  // Separators in slugs ("contact-us", "nous_joindre") read as spaces between words.
  return fold(path.replace(/[-_./#]+/g, ' '));
}

/** Links to a contact page: en, de, fr, es, it, pt, nl, the Nordic and Slavic languages, tr, ru, ar, ja, zh, ko. */
export const CONTACT_WORDS = words(
  ['contact*', 'get in touch', 'reach us', 'enquir*', 'inquir*', 'talk to us', 'write to us', 'email us', 'call us'],
  ['kontakt*', 'schreiben sie uns', 'anfrage'],
  ['nous joindre', 'nous ecrire', 'joignez'],
  ['escribenos', 'escribanos', 'hablemos'],
  ['contatt*', 'scrivici'],
  ['contato*', 'fale conosco'],
  ['iletisim', 'контакт', 'связаться', 'обратная связь', 'اتصل', 'تواصل'],
  ['問い合わせ', '問合せ', '問い合せ', '問合わせ', 'お問合', 'コンタクト', '連絡先', 'ご相談'],
  ['联系', '聯繫', '聯絡', '联络', '咨询', '諮詢', '留言'],
  ['문의', '연락'],
);

/** Links to book, schedule or ask for a quote or demo (a path to a conversation). */
export const BOOKING_WORDS = words(
  ['book', 'booking', 'appointment*', 'schedule', 'reserv*', 'demo', 'quote', 'consultation'],
  ['termin', 'termine', 'terminvereinbarung', 'buchen', 'angebot'],
  ['rendez-vous', 'rendez vous', 'devis'],
  ['cita', 'pide', 'presupuesto', 'cotiza*'],
  ['prenota', 'preventivo'],
  ['agend*', 'orcamento'],
  ['予約', '見積', '资料', '資料請求', '预约', '預約', '报价', '報價', '예약', '상담', 'запис'],
);

/** Hosts of booking and scheduling services. */
export const BOOKING_HOSTS = [
  'calendly.com',
  'cal.com',
  'acuityscheduling.com',
  'youcanbook.me',
  'savvycal.com',
  'tidycal.com',
  'meetings.hubspot.com',
  'booksy.com',
  'opentable.',
  'resy.com',
  'doctolib.',
  'treatwell.',
  'setmore.com',
  'simplybook.',
  'fresha.com',
  'square.site',
];

/** Chat widgets (script URLs) and messenger links. */
export const CHAT_MARKS = [
  'widget.intercom.io',
  'js.intercomcdn.com',
  'js.driftt.com',
  'client.crisp.chat',
  'embed.tawk.to',
  'static.zdassets.com',
  'cdn.livechatinc.com',
  'code.tidio.co',
  'js.usemessages.com',
  'wchat.freshchat.com',
  'static.olark.com',
  'call.chatra.io',
  'code.jivosite.com',
  'smartsuppchat.com',
];
export const MESSENGER_HOSTS = ['wa.me', 'api.whatsapp.com', 'line.me', 'm.me', 't.me', 'weixin.qq.com'];

/** Labels that ask the visitor to act (beyond the English pattern in marketing-act.ts). */
export const CTA_WORDS = words(
  ['jetzt', 'anfragen', 'kontakt*', 'buchen', 'kaufen', 'bestellen', 'termin*', 'angebot', 'registrieren'],
  ['anmelden', 'testen', 'herunterladen', 'in den warenkorb'],
  ['contact*', 'reserver', 'acheter', 'commander', 'essayer', 'devis', "s'inscrire", 'inscrivez', 'demander'],
  ['telecharger', 'ajouter au panier', 'prendre rendez-vous', 'commencer'],
  ['reservar', 'comprar', 'pedir', 'pide', 'solicit*', 'prueba gratis', 'registr*', 'presupuesto', 'cotiza*'],
  ['cita', 'llamar', 'llamanos', 'descargar', 'empieza', 'comenzar', 'anadir al carrito'],
  ['contatt*', 'prenota', 'acquista', 'ordina', 'richiedi', 'prova gratis', 'iscriviti', 'scarica'],
  ['preventivo', 'contato', 'fale conosco', 'agende', 'agendar', 'solicite', 'orcamento', 'experimente'],
  ['cadastre', 'baixar', 'bestel', 'boek', 'offerte', 'probeer', 'aanmelden', 'inschrijven'],
  ['問い合わせ', '問合せ', '申し込', '申込', '予約', '購入', '資料請求', '無料', '見積', '登録'],
  ['ダウンロード', 'カートに入れる', '相談', '始め'],
  ['联系', '聯繫', '聯絡', '咨询', '諮詢', '购买', '購買', '立即', '免费', '免費', '试用', '試用'],
  ['注册', '註冊', '预约', '預約', '下载', '下載', '报价', '加入购物车'],
  ['문의', '상담', '신청', '구매', '예약', '무료', '가입', '다운로드'],
  ['связаться', 'заказать', 'купить', 'записаться', 'оставить заявку', 'попробовать', 'скачать'],
);

/** A pricing page or price list, linked or named. */
export const PRICING_WORDS = words(
  ['pricing', 'prices', 'price list', 'plans', 'tarif*', 'preis*', 'kosten'],
  ['precios', 'precio', 'prezzi', 'listino', 'precos', 'prijzen', 'cennik', 'priser', 'hinnat'],
  ['料金', '価格', '费用', '价格', '價格', '收费', '收費', '요금', '가격', 'цены', 'стоимость'],
);

/** Testimonials, reviews, ratings and case studies. */
export const PROOF_WORDS = words(
  ['testimonial*', 'reviews', 'review', 'case studies', 'case study', 'trusted by', 'loved by', 'rated'],
  ['what our customers say', 'what our clients say', 'what customers say', 'what clients say'],
  ['kundenstimmen', 'bewertungen', 'erfahrungsberichte', 'referenzen'],
  ['temoignage*', 'avis de nos clients', 'avis clients', 'nos references', 'ils nous font confiance'],
  ['testimonios', 'opiniones', 'resenas', 'casos de exito'],
  ['recensioni', 'testimonianze', 'depoimentos', 'avaliacoes', 'referenties', 'opinie*'],
  ['お客様の声', '導入事例', '口コミ', 'レビュー', '客户评价', '客户案例', '用户评价', '客戶評價', '客戶案例'],
  ['고객 후기', '후기', 'отзывы'],
);
