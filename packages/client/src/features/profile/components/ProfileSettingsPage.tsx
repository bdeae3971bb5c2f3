export default function ProfileSettingsPage() {
  return <main className="page">ProfileSettingsPage</main>;
}
