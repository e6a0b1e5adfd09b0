"""The two databases' differences, kept in one place: placeholders, join hints, URLs shown safely."""

from __future__ import annotations

from keystone.store.backend import is_url, shown, translate


def test_placeholders_are_numbered_for_postgresql_and_repeats_keep_their_number() -> None:
    assert translate("SELECT ? FROM t WHERE a = ? AND b = ?") == "SELECT $1 FROM t WHERE a = $2 AND b = $3"
    assert translate("UPDATE t SET a = ?1 + ?2 WHERE c = ?1") == "UPDATE t SET a = $1 + $2 WHERE c = $1"


def test_sqlites_join_order_hint_becomes_a_plain_join() -> None:
    assert translate("FROM a CROSS JOIN b ON b.id = a.id") == "FROM a JOIN b ON b.id = a.id"


def test_a_server_url_is_shown_without_its_password() -> None:
    url = "postgresql://keystone:s3cret@db.example:6543/games?search_path=x"
    assert shown(url) == "postgresql://keystone@db.example:6543/games"
    assert is_url(url) and is_url("postgres://h/d") and not is_url("./keystone.db") and not is_url(":memory:")
