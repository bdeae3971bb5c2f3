export function PanelHeader({ title, onBack }: { title: string; onBack: () => void }) {
  return (
    <div className="panel-head">
      <button type="button" className="icon-button" onClick={onBack} aria-label="Back">
        <span aria-hidden="true">←</span>
      </button>
      <h2>{title}</h2>
    </div>
  );
}
