export default function HomePage() {
  return <main className="page">HomePage</main>;
}
