/**
 * Class names for styles that never change, resolved once (docs/ARCHITECTURE.md#start-up). A Chakra
 * component resolves its recipe and style props into CSS at every render: about a millisecond per
 * element on a tablet, so a list of 50 entries of 20 elements each took most of a second to draw.
 * Styles fixed in the code (a recipe with set variants, a few style props) are resolved and inserted
 * into Emotion's sheet at the first render of the screen that uses them; each render after that is a
 * plain element with a class name, the same CSS as the Chakra component would have written.
 *
 * For screens drawn in the browser only: a prerendered screen's HTML carries the CSS of what it
 * rendered, which these inserted rules would not reach.
 */
import { useChakraContext, type SystemContext, type SystemStyleObject } from '@chakra-ui/react';
import { __unsafe_useEmotionCache, type EmotionCache } from '@emotion/react';
import { serializeStyles } from '@emotion/serialize';
import { insertStyles } from '@emotion/utils';

/** Each style's parts: merged left to right, as Chakra merges a recipe's styles with style props. */
export type StaticStyleParts = SystemStyleObject | readonly SystemStyleObject[];

/** A style, or a recipe's: resolved with the app's system when first drawn. */
export type StaticStyle = StaticStyleParts | ((system: SystemContext) => StaticStyleParts);

function classNameOf(system: SystemContext, cache: EmotionCache, style: StaticStyle): string {
  const parts = typeof style === 'function' ? style(system) : style;
  const list: readonly SystemStyleObject[] = Array.isArray(parts) ? parts : [parts as SystemStyleObject];
  const serialized = serializeStyles([system.css(...list)], cache.registered);
  insertStyles(cache, serialized, true);
  return `${cache.key}-${serialized.name}`;
}

/**
 * A hook giving one class name per key of `styles`. Each is resolved for the app's system and Emotion
 * cache when first read (a recipe's variants cost a few milliseconds each on a tablet: only those a
 * screen draws are resolved), then kept.
 */
export function staticStyles<K extends string>(styles: Record<K, StaticStyle>): () => Readonly<Record<K, string>> {
  const resolved = new WeakMap<SystemContext, WeakMap<EmotionCache, Record<K, string>>>();
  const classesFor = (system: SystemContext, cache: EmotionCache): Record<K, string> => {
    const classes = {} as Record<K, string>;
    for (const key of Object.keys(styles) as K[]) {
      Object.defineProperty(classes, key, {
        enumerable: true,
        configurable: true,
        get() {
          const className = classNameOf(system, cache, styles[key]);
          Object.defineProperty(classes, key, { value: className, enumerable: true });
          return className;
        },
      });
    }
    return classes;
  };
  return function useStaticStyles() {
    const system = useChakraContext();
    const cache = __unsafe_useEmotionCache();
    if (!cache) throw new Error('static styles need the app’s Emotion cache');
    let byCache = resolved.get(system);
    if (!byCache) resolved.set(system, (byCache = new WeakMap()));
    let classes = byCache.get(cache);
    if (!classes) byCache.set(cache, (classes = classesFor(system, cache)));
    return classes;
  };
}
