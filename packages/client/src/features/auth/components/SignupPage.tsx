export default function SignupPage() {
  return <main className="page">SignupPage</main>;
}
