export default function AdminLoginPage() {
  return <main className="page">AdminLoginPage</main>;
}
