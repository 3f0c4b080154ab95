// « Déclaration d'accessibilité » in the console (web/shared/legal.tsx), open without logging in.
import { AccessibilityStatement } from '../../../shared/legal.tsx';
import { AgentContact } from '../legal.tsx';
import { Title } from '../ui.tsx';

export default function Accessibility() {
  return (
    <section>
      <Title text="Déclaration d’accessibilité">Déclaration d’accessibilité</Title>
      <AccessibilityStatement contact={<AgentContact />} />
    </section>
  );
}
