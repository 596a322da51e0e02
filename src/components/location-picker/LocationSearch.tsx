/**
 * The place search of the picker (docs/PRODUCT.md#location-search): suggestions 400 ms after the last
 * keystroke, only from 3 characters (fewer empties the list and asks nothing). A combobox: arrow
 * keys move through the suggestions, Enter chooses, Escape closes the list.
 */
import { Box, Field, Input, InputGroup, Spinner, Text } from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { createGeocoder, type Geocoder, type Suggestion } from '../../lib/geocoder';
import { currentLocale } from '../../lib/i18n';
import { SearchIcon } from '../ui/icons';
import { getClientConfig } from '../../lib/api/get-client-config';

export const SEARCH_DEBOUNCE_MS = 400;
export const SEARCH_MIN_LENGTH = 3;

type SearchState = 'idle' | 'searching' | 'done' | 'unavailable';

export interface LocationSearchProps {
  query: string;
  onQueryChange(query: string): void;
  onChoose(suggestion: Suggestion): void;
}

export function LocationSearch({ query, onQueryChange, onChoose }: LocationSearchProps) {
  const { t } = useLingui();
  const listId = useId();
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [state, setState] = useState<SearchState>('idle');
  const [expanded, setExpanded] = useState(false);
  const [active, setActive] = useState(-1);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const geocoder = useRef<Geocoder | null>(null);
  /** Bumped by every keystroke and choice: an answer to an older one is dropped. */
  const generation = useRef(0);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      geocoder.current?.cancel();
    },
    [],
  );

  const stop = () => {
    generation.current += 1;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    geocoder.current?.cancel();
  };

  const run = async (text: string) => {
    const mine = generation.current;
    setState('searching');
    const config = await getClientConfig();
    if (mine !== generation.current) return;
    geocoder.current ??= createGeocoder({ url: config.geocoder_url, kind: config.geocoder_kind });
    const result = await geocoder.current.search(text, currentLocale());
    if (result.status === 'aborted' || mine !== generation.current) return;
    if (result.status === 'failed') {
      setSuggestions([]);
      setExpanded(false);
      setState('unavailable');
      return;
    }
    setSuggestions(result.suggestions);
    setActive(-1);
    setExpanded(true);
    setState('done');
  };

  const change = (value: string) => {
    onQueryChange(value);
    stop();
    const text = value.trim();
    if (text.length < SEARCH_MIN_LENGTH) {
      setSuggestions([]);
      setExpanded(false);
      setActive(-1);
      setState('idle');
      return;
    }
    timer.current = setTimeout(() => {
      timer.current = null;
      void run(text);
    }, SEARCH_DEBOUNCE_MS);
  };

  const choose = (suggestion: Suggestion) => {
    stop();
    setSuggestions([]);
    setExpanded(false);
    setActive(-1);
    setState('idle');
    onChoose(suggestion);
  };

  const open = expanded && state === 'done';
  const optionId = (index: number) => `${listId}-option-${index}`;

  return (
    <Box position="relative">
      <Field.Root>
        <Field.Label>{t`Rechercher une adresse`}</Field.Label>
        <InputGroup
          startElement={<SearchIcon boxSize="5" color="fg.muted" />}
          endElement={state === 'searching' ? <Spinner size="sm" aria-label={t`Recherche…`} /> : undefined}
        >
          <Input
            size="lg"
            type="search"
            value={query}
            placeholder={t`Ville, quartier, rue… (3 caractères au moins)`}
            autoComplete="off"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={listId}
            aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
            onChange={(event) => change(event.target.value)}
            onBlur={() => setExpanded(false)}
            onFocus={() => setExpanded(suggestions.length > 0 || state === 'done')}
            onKeyDown={(event) => {
              if (!open || suggestions.length === 0) return;
              if (event.key === 'ArrowDown') {
                event.preventDefault();
                setActive((index) => (index + 1) % suggestions.length);
              } else if (event.key === 'ArrowUp') {
                event.preventDefault();
                setActive((index) => (index <= 0 ? suggestions.length - 1 : index - 1));
              } else if (event.key === 'Enter' && active >= 0) {
                event.preventDefault();
                const suggestion = suggestions[active];
                if (suggestion) choose(suggestion);
              }
            }}
          />
        </InputGroup>
        {state === 'unavailable' && (
          <Field.HelperText color="fg.warning" role="status">
            {t`Recherche indisponible pour le moment : cliquez sur la carte ou utilisez votre position.`}
          </Field.HelperText>
        )}
      </Field.Root>
      <Box
        as="ul"
        id={listId}
        role="listbox"
        aria-label={t`Suggestions`}
        hidden={!open}
        position="absolute"
        insetInline="0"
        top="100%"
        mt="1"
        zIndex="popover"
        bg="bg.panel"
        borderWidth="1px"
        borderRadius="md"
        boxShadow="md"
        maxHeight="64"
        overflowY="auto"
        listStyleType="none"
        m="0"
        p="1"
      >
        {suggestions.map((suggestion, index) => (
          <Box
            as="li"
            key={`${suggestion.lat},${suggestion.lon},${index}`}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            minHeight="44px"
            display="flex"
            alignItems="center"
            px="3"
            py="2"
            borderRadius="sm"
            cursor="pointer"
            textAlign="start"
            bg={index === active ? 'bg.muted' : undefined}
            _hover={{ bg: 'bg.muted' }}
            // Keep the focus in the input: the choice happens on click.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(suggestion)}
          >
            {suggestion.display_name}
          </Box>
        ))}
        {suggestions.length === 0 && (
          <Text as="li" role="option" aria-disabled="true" aria-selected={false} px="3" py="2" color="fg.muted">
            {t`Aucun résultat`}
          </Text>
        )}
      </Box>
    </Box>
  );
}
