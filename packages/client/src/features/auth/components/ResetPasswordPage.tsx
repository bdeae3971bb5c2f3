export default function ResetPasswordPage() {
  return <main className="page">ResetPasswordPage</main>;
}
