//! Brackets: knockout with a consolation bracket, double elimination.
