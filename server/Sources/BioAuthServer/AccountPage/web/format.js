// Times and metadata lines for the lists.

export const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const relativeFormat = typeof Intl.RelativeTimeFormat === 'function'
  ? new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }) : null;

export function timeElement(iso, relative) {
  const el = document.createElement('time');
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) {
    el.textContent = 'unknown';
    return el;
  }
  el.dateTime = iso;
  el.title = dateFormat.format(date);
  el.textContent = relative ? relativeTime(date) : dateFormat.format(date);
  return el;
}

function relativeTime(date) {
  const seconds = (date.getTime() - Date.now()) / 1000;
  const abs = Math.abs(seconds);
  if (!relativeFormat) return dateFormat.format(date);
  if (abs < 45) return seconds <= 0 ? 'just now' : 'in a moment';
  const units = [['minute', 60, 3600], ['hour', 3600, 86400], ['day', 86400, 604800]];
  for (const [unit, size, limit] of units) {
    if (abs < limit) return relativeFormat.format(Math.round(seconds / size), unit);
  }
  return dateFormat.format(date);
}

// Builds "Added <time> · Last used <time>" style metadata from parts (strings or nodes).
export function metaLine(parts) {
  const fragment = document.createDocumentFragment();
  parts.filter(Boolean).forEach((part, index) => {
    if (index > 0) fragment.append(' · ');
    if (Array.isArray(part)) fragment.append(...part);
    else fragment.append(part);
  });
  return fragment;
}
