export default function ForgotPasswordPage() {
  return <main className="page">ForgotPasswordPage</main>;
}
