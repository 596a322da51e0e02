/**
 * Static styles (src/components/ui/static-styles.ts): a class resolved once from Chakra's recipe and
 * style props is the very class Chakra's own component writes (Emotion names a class by its CSS), so
 * a list drawn with plain elements looks exactly as it did with Chakra components.
 */
import { Badge, Button, Table } from '@chakra-ui/react';
import { screen } from '@testing-library/react';
import { Fragment } from 'react';
import { describe, expect, it } from 'vitest';
import { StaticBadge } from '../../../src/components/ui/static-badge';
import { staticStyles } from '../../../src/components/ui/static-styles';
import { renderWithApp } from '../render';

/** The Emotion class of an element (Chakra's component class aside). */
function emotionClass(element: HTMLElement): string | undefined {
  return [...element.classList].find((name) => name.startsWith('css-'));
}

const useCellClasses = staticStyles({
  cell: (system) => [
    system.getSlotRecipeFn('table')({ size: 'md', variant: 'line' }).cell ?? {},
    { textAlign: 'end', whiteSpace: 'nowrap' },
  ],
  button: (system) => [
    system.getRecipeFn('button')({ size: 'sm', variant: 'outline' }),
    // In the order of the props below: Emotion names a class after its CSS, declarations in order.
    { minHeight: '11' },
    { colorPalette: 'brand' },
  ],
});

function StaticCellAndButton() {
  const classes = useCellClasses();
  return (
    <table>
      <tbody>
        <tr>
          <td data-testid="static-cell" className={classes.cell}>
            <button type="button" data-testid="static-button" className={classes.button}>
              Corriger
            </button>
          </td>
        </tr>
      </tbody>
    </table>
  );
}

describe('static styles', () => {
  it('give a badge the class Chakra’s Badge writes for the same palette and variant', async () => {
    const looks = [
      { palette: 'red', variant: 'solid', label: 'Refusée' },
      { palette: 'green', variant: 'subtle', label: 'Envoyée' },
    ] as const;
    await renderWithApp(
      <>
        {looks.map(({ palette, variant, label }) => (
          <Fragment key={label}>
            <Badge colorPalette={palette} variant={variant} size="md" data-testid={`chakra-${palette}`}>
              {label}
            </Badge>
            <StaticBadge palette={palette} variant={variant}>
              {label} statique
            </StaticBadge>
          </Fragment>
        ))}
      </>,
    );
    const staticRed = screen.getByText('Refusée statique');
    expect(emotionClass(staticRed)).toBeDefined();
    expect(emotionClass(staticRed)).toBe(emotionClass(screen.getByTestId('chakra-red')));
    expect(emotionClass(screen.getByText('Envoyée statique'))).toBe(emotionClass(screen.getByTestId('chakra-green')));
    expect(emotionClass(staticRed)).not.toBe(emotionClass(screen.getByText('Envoyée statique')));
    expect(staticRed.classList.contains('chakra-badge')).toBe(true);
  });

  it('give a table cell and a button the classes of Chakra’s, recipe and style props merged alike', async () => {
    await renderWithApp(
      <>
        <Table.Root size="md">
          <Table.Body>
            <Table.Row>
              <Table.Cell data-testid="chakra-cell" textAlign="end" whiteSpace="nowrap">
                <Button size="sm" minHeight="11" variant="outline" colorPalette="brand" data-testid="chakra-button">
                  Corriger
                </Button>
              </Table.Cell>
            </Table.Row>
          </Table.Body>
        </Table.Root>
        <StaticCellAndButton />
      </>,
    );
    expect(emotionClass(screen.getByTestId('static-cell'))).toBe(emotionClass(screen.getByTestId('chakra-cell')));
    expect(emotionClass(screen.getByTestId('static-button'))).toBe(emotionClass(screen.getByTestId('chakra-button')));
  });
});
