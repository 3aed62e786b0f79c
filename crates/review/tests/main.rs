mod duel;
