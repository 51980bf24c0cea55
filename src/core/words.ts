/**
 * Word lists for human-friendly identifiers (`ep-quiet-river-123456`). Order matters: ids are
 * drawn by index, so changing a list changes every id for a given seed.
 */

/** Adjectives used as the first word of generated ids. */
// prettier-ignore
export const ADJECTIVES: readonly string[] = [
  'amber', 'ancient', 'autumn', 'billowing', 'bitter', 'black', 'blue', 'bold',
  'brave', 'breezy', 'bright', 'broad', 'calm', 'cold', 'cool', 'crimson',
  'curly', 'damp', 'dark', 'dawn', 'delicate', 'divine', 'dry', 'empty',
  'falling', 'fancy', 'flat', 'floral', 'fragrant', 'frosty', 'gentle', 'green',
  'hidden', 'holy', 'icy', 'jolly', 'late', 'lingering', 'little', 'lively',
  'long', 'lucky', 'misty', 'morning', 'muddy', 'nameless', 'noisy', 'odd',
  'old', 'orange', 'patient', 'plain', 'polished', 'proud', 'purple', 'quiet',
  'rapid', 'raspy', 'red', 'restless', 'rough', 'round', 'royal', 'shiny',
  'shrill', 'shy', 'silent', 'small', 'snowy', 'soft', 'solitary', 'sparkling',
  'spring', 'square', 'steep', 'still', 'summer', 'super', 'sweet', 'throbbing',
  'tight', 'tiny', 'twilight', 'wandering', 'weathered', 'white', 'wild', 'winter',
  'wispy', 'withered', 'yellow', 'young',
];

/** Nouns used as the second word of generated ids. */
// prettier-ignore
export const NOUNS: readonly string[] = [
  'art', 'band', 'bar', 'base', 'bird', 'block', 'boat', 'bonus',
  'bread', 'breeze', 'brook', 'bush', 'butterfly', 'cake', 'cell', 'cherry',
  'cloud', 'credit', 'darkness', 'dawn', 'dew', 'disk', 'dream', 'dust',
  'feather', 'field', 'fire', 'firefly', 'flower', 'fog', 'forest', 'frog',
  'frost', 'glade', 'glitter', 'grass', 'hall', 'hat', 'haze', 'heart',
  'hill', 'king', 'lab', 'lake', 'leaf', 'limit', 'math', 'meadow',
  'mode', 'moon', 'morning', 'mountain', 'mouse', 'mud', 'night', 'paper',
  'pine', 'poetry', 'pond', 'queen', 'rain', 'recipe', 'resonance', 'rice',
  'river', 'salad', 'scene', 'sea', 'shadow', 'shape', 'silence', 'sky',
  'smoke', 'snow', 'snowflake', 'sound', 'star', 'sun', 'sunset', 'surf',
  'term', 'thunder', 'tooth', 'tree', 'truth', 'union', 'unit', 'violet',
  'voice', 'water', 'waterfall', 'wave', 'wildflower', 'wind', 'wood',
];
