//! Who may see a table: a public one, anyone; a private one, whoever brings its secret,
//! its creator, the accounts seats are kept for, everybody who ever sat there and
//! whoever holds a live invitation to it. Everything else is answered as a table that
//! does not exist.

use super::{PrivateRow, TableInfo};
use crate::store::Db;
use sha2::{Digest, Sha256};

/// Whether two secrets are the same, in a time that does not depend on where they differ
/// (their digests are compared whole).
pub(crate) fn same_secret(given: &str, kept: &str) -> bool {
    let (a, b) = (
        Sha256::digest(given.as_bytes()),
        Sha256::digest(kept.as_bytes()),
    );
    a.iter().zip(b.iter()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// Whether `player` (or a visitor) may see a table: a public one, anyone; a private one,
/// whoever brings its secret, its creator, the account a seat is kept for, everybody
/// who ever sat there and whoever holds a live invitation to it.
pub async fn may_see(
    db: &Db,
    info: &TableInfo,
    player: Option<i64>,
    invite: Option<&str>,
) -> Result<bool, String> {
    let kept: Vec<i64> = info
        .private
        .reserved
        .iter()
        .flatten()
        .map(|p| p.id)
        .collect();
    let secret = info.private.invite.as_deref();
    allowed(db, &info.id, info.creator, secret, &kept, player, invite).await
}

/// [`may_see`] on a table's parts: its id, creator, secret (`None`: public) and the
/// accounts seats are kept for.
pub(crate) async fn allowed(
    db: &Db,
    id: &str,
    creator: Option<i64>,
    secret: Option<&str>,
    kept: &[i64],
    player: Option<i64>,
    invite: Option<&str>,
) -> Result<bool, String> {
    let Some(secret) = secret else {
        return Ok(true);
    };
    if invite.is_some_and(|i| same_secret(i, secret)) {
        return Ok(true);
    }
    let Some(p) = player else { return Ok(false) };
    if creator == Some(p) || kept.contains(&p) {
        return Ok(true);
    }
    let since = db.clock().epoch() - crate::friends::INVITATION_TTL;
    db.sat_or_invited(id.to_string(), p, since)
        .await
        .map_err(|e| e.to_string())
}

/// Whether `player` may see a table (as [`may_see`]) from its id, its creator and its
/// private part as stored.
pub async fn may_see_friends(
    db: &Db,
    id: &str,
    creator: Option<i64>,
    friends: &PrivateRow,
    player: Option<i64>,
    invite: Option<&str>,
) -> Result<bool, String> {
    let kept: Vec<i64> = friends.reserved.iter().map(|(_, p, _)| *p).collect();
    allowed(
        db,
        id,
        creator,
        friends.invite.as_deref(),
        &kept,
        player,
        invite,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_match_only_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abd", "abc"));
        assert!(!same_secret("ab", "abc"));
        assert!(!same_secret("", "abc"));
    }
}
