// The package's library entry, `siteaudit/webhooks`: what a receiver needs to trust a delivery
// (docs/webhooks.md). Nothing here starts a service or reads configuration.
export type { RunEventData, WebhookEvent } from './contract/webhook.ts';
export {
  SIGNATURE_TOLERANCE_SECONDS,
  signDelivery,
  type VerifyOptions,
  verifyWebhook,
  type WebhookVerificationCode,
  WebhookVerificationError,
} from './contract/webhook-signature.ts';
