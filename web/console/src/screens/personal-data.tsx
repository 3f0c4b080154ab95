// « Données personnelles » in the console (web/shared/legal.tsx), open without logging in.
import { PersonalData } from '../../../shared/legal.tsx';
import { AgentContact } from '../legal.tsx';
import { Title } from '../ui.tsx';

export default function PersonalDataScreen() {
  return (
    <section>
      <Title text="Données personnelles">Données personnelles</Title>
      <PersonalData contact={<AgentContact />} />
    </section>
  );
}
