// English messages: the reference catalogue. Every key here must exist in zh.ts too
// (the type check refuses a catalogue with a key missing). Keys are grouped by the
// part of the window they belong to; {name} marks a parameter of t().
export const en = {
  'app.name': 'MemoTree',
  'settings.language': 'Language',
  'settings.language.auto': 'Follow the system',
  'settings.language.en': 'English',
  'settings.language.zh': '简体中文',
}
