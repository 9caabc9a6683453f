// Developer portfolio data shown on the "My Portfolio" page.
// NOTE: this data is entirely fictional. The person, contact details, projects
// and links are placeholders; every URL and address uses the reserved
// example.com domain.

export const portfolio = {
  name: 'Alex Morgan',
  role: 'Full-Stack Web Developer',
  email: 'alex.morgan@example.com',
  location: 'Rotterdam, Netherlands',
  summary:
    'Full-stack developer who enjoys building fast, accessible web applications with TypeScript, from the database schema to the last pixel of the interface.',
  education: [
    {
      degree: 'BSc in Computer Science',
      school: 'Northbridge University of Applied Sciences',
      years: '2016 - 2020',
    },
    {
      degree: 'Higher Secondary Certificate (Science)',
      school: 'Westhaven College',
      years: '2014 - 2016',
    },
  ],
  skills: [
    'TypeScript',
    'JavaScript (ES2022)',
    'React',
    'Astro',
    'Node.js',
    'Hono',
    'PostgreSQL',
    'HTML & CSS',
    'Tailwind CSS',
    'REST API design',
    'Vitest & Playwright',
    'Git & CI/CD',
  ],
  projects: [
    {
      name: 'Fieldnotes',
      description:
        'A markdown note-taking app for field engineers with offline sync, full-text search and photo attachments.',
      url: 'https://fieldnotes.example.com',
    },
    {
      name: 'Shiftboard',
      description:
        'A shift-scheduling dashboard for small workshops, with drag-and-drop rotas, availability requests and CSV export.',
      url: 'https://shiftboard.example.com',
    },
    {
      name: 'Partsbin',
      description:
        'An inventory tracker for spare parts that scans barcodes, flags low stock and generates purchase orders.',
      url: 'https://partsbin.example.com',
    },
  ],
  links: [
    { label: 'GitHub', url: 'https://github.example.com/alex-morgan' },
    { label: 'LinkedIn', url: 'https://linkedin.example.com/in/alex-morgan' },
    { label: 'Website', url: 'https://alexmorgan.example.com' },
  ],
};
