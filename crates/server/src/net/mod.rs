//! The network's edge, below every domain: what a connection has yet to write
//! ([`outbox`]), the per-address budgets and caches ([`limit`]), and the PROXY protocol
//! of a balancer in front ([`proxy`]).

pub mod limit;
pub mod outbox;
pub mod proxy;
