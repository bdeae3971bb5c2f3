export default function TicketPage() {
  return <main className="page">TicketPage</main>;
}
