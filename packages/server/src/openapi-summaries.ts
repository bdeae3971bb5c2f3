/**
 * One-line summary of every operation, keyed by operation id (the handler name). `pnpm contract` fails for an
 * operation without one, so a new route cannot land undocumented. Longer text goes in the response descriptions.
 */
export const OPERATION_SUMMARIES: Record<string, string> = {
  // Accounts and sessions
  createUser: 'Sign up a customer',
  loginUser: 'Sign in as a customer',
  loginAdmin: 'Sign in as an administrator',
  logout: 'Sign out everywhere (revokes every session)',
  me: 'The signed-in account',
  updateProfile: 'Update the own profile',
  changePassword: 'Change the own password',
  forgotPassword: 'Ask for a password reset mail',
  resetPassword: 'Choose a new password with a reset token',
  // Operations
  health: 'Health (database reachable)',
  live: 'Liveness probe',
  ready: 'Readiness probe (database reachable and migrated)',
  getMetrics: 'Prometheus metrics',
  // Market
  getCrypto: 'Market list of the top coins',
  getWalletTokens: 'Tokens a customer can hold, with prices',
  getMarketStatus: 'Where prices come from and how fresh they are',
  // Notifications and support
  getNotifications: 'Own notifications',
  readNotification: 'Mark a notification read',
  userEvents: 'Live events stream (server-sent events)',
  createTicket: 'Open a support ticket',
  getTickets: 'Support tickets inbox',
  getTicket: 'One support ticket with its messages',
  replyTicket: 'Reply to a support ticket',
  closeTicket: 'Close a support ticket',
  // Back office
  deleteUser: 'Delete (deactivate) a customer',
  sendNotification: 'Send a notification to a customer',
  broadcastNotification: 'Send a notification to every customer',
  getAuditLog: 'Audit log',
  getDashboard: 'Back-office dashboard figures',
  getUsers: 'Customers list',
  // Wallet
  getUserBalance: 'Own balances in USD',
  getTransaction: 'Own transactions',
  exportTransactions: 'Own transactions as CSV',
  sendCrypto: 'Send a token to an address',
  swapTokens: 'Swap one token for another',
  // Transactions and ledger (admin)
  depositCrypto: 'Record a deposit for a customer',
  modifyTransaction: 'Set the status of a deposit or withdrawal',
  deleteTrx: 'Void a transaction',
  updateBalance: "Adjust a customer's balance",
  getAdminTransactions: 'All transactions',
  checkLedger: 'Check the ledger invariants',
  getLedgerLiabilities: 'Liabilities per token',
  // Tokens (admin)
  getTokens: 'Supported tokens',
  addToken: 'Add a supported token',
  editToken: 'Edit a supported token',
  deleteToken: 'Remove a supported token',
  getCustomTokens: 'Custom tokens',
  addCustomToken: 'Create a custom token',
  editCustomToken: 'Edit a custom token',
  deleteCustomToken: 'Delete a custom token',
  // Back office: admins, four-eyes approvals, per-user page, exports
  getAdmins: 'Administrators',
  createAdmin: 'Add an administrator',
  deleteAdmin: 'Deactivate an administrator',
  getApprovals: 'Approval requests',
  approveRequest: 'Approve a request (second admin)',
  rejectRequest: 'Reject a request',
  getUserDetail: 'One customer: profile, balances and activity',
  exportUsers: 'Export customers (CSV)',
  exportAdminTransactions: 'Export transactions (CSV)',
  exportAuditLog: 'Export the audit log (CSV)',
  // Address book
  deleteAddress: 'Delete a saved withdrawal address',
  // Account security
  twoFactorStatus: 'Two-factor sign-in status',
  setupTwoFactor: 'Start two-factor enrolment',
  enableTwoFactor: 'Turn two-factor sign-in on',
  disableTwoFactor: 'Turn two-factor sign-in off',
  regenerateRecoveryCodes: 'New recovery codes',
  logoutAll: 'Sign out everywhere',
  listSessions: 'Signed-in sessions',
  deleteSession: 'End one session',
  listAdminSessions: "Administrator's signed-in sessions",
  deleteAdminSession: "End one administrator's session",
};
