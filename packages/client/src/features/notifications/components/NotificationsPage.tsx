export default function NotificationsPage() {
  return <main className="page">NotificationsPage</main>;
}
