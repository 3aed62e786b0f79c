//! The integration tests of this crate, one module per file, built as one test binary
//! (one link instead of one per file).

mod accounts;
mod chat;
mod cuadrillas;
mod fairness;
mod friends;
mod generic;
mod hostile;
mod i18n;
mod leases;
mod legacy;
mod log;
mod nodes;
mod operator;
mod pages;
mod private_tables;
mod push;
mod ratings;
mod recovery;
mod review;
mod schema;
mod seats;
mod support;
mod tournaments;
mod upgrade;
