// A user a check registered: its own module, so the kit's control and identity helpers name it
// without importing users.ts (which imports them).

export interface TestUser {
  id: string;
  email: string;
  /** EOA address given at registration (user_address). */
  address: string;
  country: string;
  /** Index of the client (company) that created it. */
  client: number;
}
