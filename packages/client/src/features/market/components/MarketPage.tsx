export default function MarketPage() {
  return <main className="page">MarketPage</main>;
}
