export default function ProfileOverviewPage() {
  return <main className="page">ProfileOverviewPage</main>;
}
