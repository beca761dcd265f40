#pragma once

#include <QByteArray>
#include <QList>
#include <QRegularExpression>
#include <QString>

#include <optional>

namespace LockScope {

struct LockHolder;

// What a home-grown lock's value says of its holder, as its owner template reads it.
struct OwnerReading
{
    QByteArray owner; // the owner id (an actor, a run, a session)
    QByteArray host;
    QByteArray run; // a run id, where the scheme keeps one apart from the owner
    qint64 pid = 0;
    qint64 sinceMs = 0; // epoch ms the hold was taken
};

// A team's own lock scheme, declared per key pattern (--owner-template 'GLOB=SPEC', a profile's ownerTemplates):
// where the owner is in the key's value and how to read its host, pid, start and run id, and optionally the heartbeat
// key its holder keeps fresh (docs/protocol/templates.md). The lock is a string key: taken with SET NX, given back by
// deleting it while it still holds the value read, so LockScope's release is the compare-and-delete of that value.
//
// SPEC is the owner's source, then optional items, comma-separated:
//   value                      the whole value is the owner
//   json:$.path                the value is JSON; the owner at that path ($.a.b, $.list[0])
//   regex:PATTERN              named groups owner, host, pid, since, run. It takes the rest of SPEC, commas and
//                              all, so it comes last, after the other items
//   host=$.path, pid=$.path, since=$.path, run=$.path   (json: paths into the same document)
//   heartbeat=PATTERN          a key its holder refreshes; {owner}, {run}, {host}, {pid} and {name} (the lock's name)
//                              are filled in. Present with a TTL, or holding a time less than heartbeat-age old: fresh
//   heartbeat-age=SECONDS      how old a heartbeat's time may be and still be fresh (default 60)
//   queue=KEY:FORMAT           the list its waiters queue in ({name} filled in), each member an owner as FORMAT says:
//                              value (the member is the owner) or json:$.path
struct OwnerTemplate
{
    enum class Source { Value, Json, Regex };

    QByteArray glob;
    Source source = Source::Value;
    QByteArray ownerPath; // json: the owner's path
    QRegularExpression regex;
    QByteArray hostPath;
    QByteArray pidPath;
    QByteArray sincePath;
    QByteArray runPath;
    QByteArray heartbeat; // the heartbeat key's pattern; empty: none
    qint64 heartbeatMaxAgeMs = 60000;
    QByteArray queue; // the waiters' list key pattern; empty: none
    QByteArray queueMemberPath; // json: where a member's owner is; empty: the member is the owner
    QByteArray spec; // as given, for messages and the profile

    // "GLOB=SPEC"; nullopt with *error saying what is wrong.
    static std::optional<OwnerTemplate> parse(const QByteArray &entry, QString *error);
    // What value says of its holder; nullopt when it does not have the declared shape.
    std::optional<OwnerReading> read(const QByteArray &value) const;
    // The heartbeat key of a holder of lock name; empty without a heartbeat.
    QByteArray heartbeatKey(const QByteArray &name, const OwnerReading &reading) const;
    // The waiters' list of lock name; empty without one.
    QByteArray queueKey(const QByteArray &name) const;
    // The owner a queue member names; empty when the member does not have the declared shape.
    QByteArray queueMemberOwner(const QByteArray &member) const;
    // Fills what holder's token (the whole value) says of it: the owner as its client, the run as its thread, host,
    // pid, since, the heartbeat key. False when the value does not have the template's shape.
    bool describe(const QByteArray &name, LockHolder &holder) const;
};

// A time as lock values write it: ISO 8601, epoch seconds or epoch milliseconds (a number past 1e11 is taken as ms;
// one below 1e9, before 2001 in seconds, is no time); 0 when it is none of them.
qint64 parseLockTime(const QByteArray &text);

} // namespace LockScope
