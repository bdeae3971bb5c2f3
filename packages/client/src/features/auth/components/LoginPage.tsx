export default function LoginPage() {
  return <main className="page">LoginPage</main>;
}
