// The melds Chinchón's page finds in a hand (to mark them and to word the closes it offers)
// on the spec's edge cases: escaleras through 7-sota-caballo in the 40-card deck and through
// 8 and 9 in the 48-card one, no wrap from rey to as, a card that fits a group or an
// escalera, two escaleras in one suit, a group of four against a group of three and an
// escalera, jokers, two copies of a card, the figures' values; and the cards the page draws
// for the 48-card deck and the joker. (Every turn of the whole-game test also checks the
// closes the page offers against the server's legal ones.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser } from '../lib.mjs';

const CASES = [
  // [hand, rules, least deadwood, close of the seven]
  ['5o 6o 7o 10o 11o 2c 3e', {}, 5, null],
  ['7o 10o 11o 1c 1e 1b 2c', {}, 2, 'normal 2c 2'],
  ['7o 8o 9o 10o 1c 1e 1b', { deck: 48 }, 0, 'menos_diez'],
  ['11o 12o 1o 2o 3o 5c 5e', {}, 33, null],
  ['10o 11o 12o 1o 2o 3c 3e', {}, 9, null],
  ['3o 4o 5o 5c 5e 12b 12c', {}, 31, null],
  ['1o 2o 3o 5o 6o 7o 12b', {}, 12, null],
  ['1o 2o 3o 5o 6o 7o 1b', {}, 1, 'normal 1b 1'],
  ['7o 7c 7e 7b 5o 6o 1c', {}, 1, 'normal 1c 1'],
  ['1o 2o J 7c 7e 12b 12c', { jokers: 1 }, 17, null],
  ['1o 2o 3o 4o 5o 6o 7o', {}, 0, 'chinchon'],
  ['1c 2c 3c J 5c 6c 7c', { jokers: 1 }, 0, 'chinchon'],
  ['5o 5o 5c 1e 2e 3e 12b', {}, 12, null],
  ['2o 3o 4o 4c 4e 11b 11c', { figures: 'ten' }, 25, null],
  ['2o 3o 4o 4c 4e 11b 12c', { figures: 'eight_nine_ten' }, 24, null],
  ['1o 2o 3o 7c 7e 7b 5c', { close_limit: 5 }, 5, 'normal 5c 5'],
];

test('Chinchón: the page\'s melds and closes on the spec\'s edge cases; 8, 9 and the joker drawn', { timeout: 60000 }, async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await page.goto(`${BASE}/`);
    const got = await page.evaluate(async (cases) => {
      const { analyze, closeOf, closes } = await import('/assets/chinchon.js');
      const word = (c) => (c ? (c.kind === 'normal' ? `normal ${c.card} ${c.points}` : c.kind) : null);
      return {
        cases: cases.map(([hand, rules]) => [analyze(hand.split(' '), rules).deadwood, word(closeOf(hand.split(' '), rules))]),
        eight: [...closes('1o 2o 3o 7c 7e 7b 12o 2c'.split(' '), {})].map(([c, close]) => `${c}: ${word(close)}`),
      };
    }, CASES);
    CASES.forEach(([hand, rules, deadwood, close], k) => {
      assert.deepEqual(got.cases[k], [deadwood, close], `${hand} ${JSON.stringify(rules)}`);
    });
    assert.deepEqual(got.eight, ['12o: normal 2c 2'], 'of eight cards, only putting the rey down closes');

    const drawn = await page.evaluate(async () => {
      const { cardSVG, cardName } = await import('/assets/cards.js');
      const label = (code) => /aria-label="([^"]*)"/.exec(cardSVG(code))[1];
      return { labels: ['8o', '9b', 'J', 'back'].map(label), names: ['8c', '9e', 'J'].map(cardName) };
    });
    assert.deepEqual(drawn.labels, ['ocho de oros', 'nueve de bastos', 'comodín', 'card back']);
    assert.deepEqual(drawn.names, ['ocho de copas', 'nueve de espadas', 'comodín']);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
