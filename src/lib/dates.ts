/** Dates as the spec shows them: DD/MM/YYYY HH:mm, in the tablet's local time. */
const pad = (value: number) => String(value).padStart(2, '0');

export function formatDateTime(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
