import * as admin from '../../../api/generated/adminIntegrationsApi.generated';
import * as user from '../../../api/generated/integrationsApi.generated';

/** Whose keys and webhooks a screen manages: the signed-in customer's (`/api/user/…`) or administrator's (`/api/admin/…`). */
export type Owner = 'user' | 'admin';

export type ApiKey = user.ApiKeyDto;
export type Webhook = user.WebhookDto;
export type WebhookDelivery = user.WebhookDeliveryDto;
export type CreateApiKeyBody = user.CreateApiKeyDto;
export type CreateWebhookBody = user.CreateWebhookDto;
export type UpdateWebhookBody = user.UpdateWebhookDto;
export type WebhookEvent = user.CreateWebhookDto['events'][number];

/** The API keys of `owner`, and what changes them (each answers a promise to `unwrap`). */
export function useApiKeys(owner: Owner) {
  const customer = user.useListApiKeysQuery(undefined, { skip: owner !== 'user' });
  const administrator = admin.useListAdminApiKeysQuery(undefined, { skip: owner !== 'admin' });
  const [createUser, creatingUser] = user.useCreateApiKeyMutation();
  const [createAdmin, creatingAdmin] = admin.useCreateAdminApiKeyMutation();
  const [revokeUser] = user.useRevokeApiKeyMutation();
  const [revokeAdmin] = admin.useRevokeAdminApiKeyMutation();
  const list = owner === 'user' ? customer : administrator;
  return {
    keys: list.data,
    isLoading: list.isLoading,
    creating: owner === 'user' ? creatingUser.isLoading : creatingAdmin.isLoading,
    create: (body: CreateApiKeyBody) => (owner === 'user' ? createUser({ createApiKeyDto: body }) : createAdmin({ createApiKeyDto: body })).unwrap(),
    revoke: (id: string) => (owner === 'user' ? revokeUser({ id }) : revokeAdmin({ id })).unwrap(),
  };
}

/** The webhook endpoints of `owner`, and what changes them. */
export function useWebhooks(owner: Owner) {
  // Refreshed now and then: deliveries go out (and endpoints get disabled) while the screen is open.
  const options = { pollingInterval: 10_000 };
  const customer = user.useListWebhooksQuery(undefined, { ...options, skip: owner !== 'user' });
  const administrator = admin.useListAdminWebhooksQuery(undefined, { ...options, skip: owner !== 'admin' });
  const [createUser, creatingUser] = user.useCreateWebhookMutation();
  const [createAdmin, creatingAdmin] = admin.useCreateAdminWebhookMutation();
  const [updateUser] = user.useUpdateWebhookMutation();
  const [updateAdmin] = admin.useUpdateAdminWebhookMutation();
  const [deleteUser] = user.useDeleteWebhookMutation();
  const [deleteAdmin] = admin.useDeleteAdminWebhookMutation();
  const [rotateUser] = user.useRotateWebhookSecretMutation();
  const [rotateAdmin] = admin.useRotateAdminWebhookSecretMutation();
  const [testUser] = user.useTestWebhookMutation();
  const [testAdmin] = admin.useTestAdminWebhookMutation();
  const list = owner === 'user' ? customer : administrator;
  const mine = owner === 'user';
  return {
    webhooks: list.data,
    isLoading: list.isLoading,
    creating: mine ? creatingUser.isLoading : creatingAdmin.isLoading,
    create: (body: CreateWebhookBody) => (mine ? createUser({ createWebhookDto: body }) : createAdmin({ createWebhookDto: body })).unwrap(),
    update: (id: string, body: UpdateWebhookBody) => (mine ? updateUser({ id, updateWebhookDto: body }) : updateAdmin({ id, updateWebhookDto: body })).unwrap(),
    remove: (id: string) => (mine ? deleteUser({ id }) : deleteAdmin({ id })).unwrap(),
    rotate: (id: string) => (mine ? rotateUser({ id }) : rotateAdmin({ id })).unwrap(),
    test: (id: string) => (mine ? testUser({ id }) : testAdmin({ id })).unwrap(),
  };
}

/** One endpoint's deliveries (newest first, with every try), refreshed every few seconds while shown, and resend. */
export function useDeliveries(owner: Owner, id: string) {
  const options = { pollingInterval: 5_000 };
  const customer = user.useListWebhookDeliveriesQuery({ id, limit: 50 }, { ...options, skip: owner !== 'user' });
  const administrator = admin.useListAdminWebhookDeliveriesQuery({ id, limit: 50 }, { ...options, skip: owner !== 'admin' });
  const [resendUser] = user.useResendWebhookDeliveryMutation();
  const [resendAdmin] = admin.useResendAdminWebhookDeliveryMutation();
  const list = owner === 'user' ? customer : administrator;
  return {
    deliveries: list.data,
    isLoading: list.isLoading,
    resend: (deliveryId: string) => (owner === 'user' ? resendUser({ id, deliveryId }) : resendAdmin({ id, deliveryId })).unwrap(),
  };
}
