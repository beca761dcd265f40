#pragma once

#include "kinds/hashrecognition.h"
#include "kinds/keyglob.h"
#include "kinds/lockclassifier.h"

#include <QByteArray>
#include <QList>

#include <optional>
#include <utility>

namespace LockScope {

class AuxReader;
struct HashReading;

// One SCAN cursor discovery walks on every node (docs/protocol/classification.md#reading-a-key).
struct ScanCursor
{
    // How each key it returns is read, by its Redis type: a hash's first page of fields, a string's first bytes, a
    // sorted set's first members with their scores (each with its PTTL); or as some layout's aux keys, each naming
    // the lock it belongs to (LockNameMap::fromAuxKey), read as a lock whose own key may be gone (an orphaned fair
    // queue: LockRecogniser::readKeyless).
    enum class Read { Hash, String, SortedSet, AuxKeys };
    ScanCursor(QByteArray pattern, QByteArray type, Read read, QList<QByteArray> filter = {})
        : pattern(std::move(pattern))
        , type(std::move(type))
        , read(read)
        , filter(std::move(filter))
    { }
    QByteArray pattern; // SCAN ... MATCH
    QByteArray type; // SCAN ... TYPE where the server has it (Redis 6+); empty: every type
    Read read = Read::Hash;
    // Globs the keys it returns must match one of, checked here: several patterns share one walk of the keyspace
    // (SCAN has one MATCH), rather than each costing a walk of its own. Empty: every key MATCH let through.
    QList<QByteArray> filter;
    bool operator==(const ScanCursor &o) const
    {
        return pattern == o.pattern && type == o.type && read == o.read && filter == o.filter;
    }
};

// What discovery covers: the monitor's (or list's) pattern, and where string locks are looked for.
struct DiscoveryScope
{
    QByteArray pattern = "*";
    StringLockPatterns stringPatterns;
};

// What a layout's aux reads found beside a lock hash candidate (LockRecogniser::auxEvidence).
struct AuxEvidence
{
    bool found = false; // one of its aux keys exists
    bool vouches = false; // what exists speaks for a live lock
};

// How a layout finds and recognises its own locks: discovery's cursors and reads, its part in telling one lock hash
// from another, classification, and the channels its releases are heard on. Every layout has one
// (LockLayout::recogniser()); the scanner, the classifier, the kind check and the monitor ask it and nothing else.
class LockRecogniser
{
public:
    virtual ~LockRecogniser() = default;

    // Discovery: the SCAN cursors that find this layout's locks (the scanner walks each distinct one once: Redisson's
    // layouts share the one over lock hashes) ...
    virtual QList<ScanCursor> scanCursors(const DiscoveryScope &scope) const
    {
        return { { scope.pattern, "hash", ScanCursor::Read::Hash } };
    }
    // ... and the reads a lock hash candidate needs beyond its fields and TTL for this layout's fingerprint and
    // description. The scanner asks every layout, in the registry's order, for every candidate of a batch.
    virtual void readAux(AuxReader &reader) const { Q_UNUSED(reader); }
    // The same for a string candidate (a declared Redisson semaphore's permit set and listeners).
    virtual void readStringAux(AuxReader &reader) const { Q_UNUSED(reader); }
    // A lock whose own key is gone may live on in its aux keys (an orphaned fair queue still blocks every fair
    // acquire: docs/protocol/classification.md#orphaned-fair-queues). Whether name, under which no key exists, may be
    // such a lock (it is then read as a candidate of type "none") ...
    virtual bool mayOutliveItsKey(const QByteArray &name) const
    {
        Q_UNUSED(name);
        return false;
    }
    // ... and the reads of such a candidate. A read that finds the lock's own key under another reading of its name
    // marks the snapshot superseded: that key is listed by its own cursor, never twice.
    virtual void readKeyless(AuxReader &reader) const { Q_UNUSED(reader); }
    // What those reads found beside a lock hash candidate, for the confidence any lock hash is judged with
    // (docs/protocol/classification.md#confidence): whether one of its aux keys exists, and whether what exists
    // vouches for a live lock (a reader's timeout key that is still there, not only a reader's field).
    virtual AuxEvidence auxEvidence(const KeySnapshot &key) const
    {
        Q_UNUSED(key);
        return {};
    }
    // What they add to a lock hash, whichever layout's it is (a fair queue beside a fenced lock is still shown).
    virtual void describeAux(const KeySnapshot &key, LockInfo &info) const
    {
        Q_UNUSED(key);
        Q_UNUSED(info);
    }

    // What tells this layout's lock hash apart from the others' (kinds/hashrecognition.h): the kind check of every
    // acquire script, the probe before a release and the classifier's choice among the lock hash layouts all read
    // these marks. None: the layout keeps no Redisson lock hash.
    virtual std::optional<HashMark> hashMark() const { return std::nullopt; }
    // Classification (docs/protocol/classification.md). Asked first for every key: true when this layout decides
    // what it is (a string inside a string lock pattern, an orphaned fair queue, a sidekiq-unique-jobs hash), with
    // info filled in (it may still be no lock); false leaves it to the others, and a hash to Redisson's shape rules.
    virtual bool classifyKey(const KeySnapshot &key, LockInfo &info) const
    {
        Q_UNUSED(key);
        Q_UNUSED(info);
        return false;
    }
    // A Redisson lock hash that passed the shape checks, read into hash, and whose mark is this layout's
    // (HashRecognition::classify): its kind and what only this layout can tell of it.
    virtual void describeHash(const KeySnapshot &key, const HashReading &hash, LockInfo &info) const
    {
        Q_UNUSED(key);
        Q_UNUSED(hash);
        Q_UNUSED(info);
    }
    // What a lock of this layout is classified as while idle, when the keys that tell it apart come and go (a fair
    // lock with nobody queued looks like a reentrant one), with the evidence a monitor that saw it before adds
    // (translated in the LockScope::LockTracker context). None: it always shows as its own kind.
    virtual std::optional<LockInfo::Kind> idleKind() const { return std::nullopt; }
    virtual const char *idleEvidence() const { return nullptr; }

    // Where a monitor hears every release of name, and its waiters listen (empty: releases are silent).
    virtual QByteArray releaseChannel(const QByteArray &name) const
    {
        Q_UNUSED(name);
        return {};
    }
    // The PSUBSCRIBE patterns that hear every release of this layout's locks (none: its releases are silent), and the
    // names a message on such a channel may concern (every reading: a name may contain ':' and braces itself).
    virtual QList<QByteArray> releaseChannelPatterns() const { return {}; }
    virtual QList<QByteArray> namesFromChannel(const QByteArray &channel) const
    {
        Q_UNUSED(channel);
        return {};
    }
    // The channels whose subscribers vouch for a name no pattern declares: Redisson's counters have no mark of their
    // own but the channel their waiters listen on (releaseChannel). A walk finds such names with PUBSUB CHANNELS over
    // these patterns (namesFromChannel reads each back); a name read alone asks PUBSUB NUMSUB of its releaseChannel.
    // None: only a declared pattern names this layout's objects.
    virtual QList<QByteArray> vouchingChannelPatterns() const { return {}; }
    // The lock names key may belong to when it is one of this layout's aux keys (a fair queue, a fencing token, a
    // reader's timeout key), every reading; none when it is not one. A monitor refreshes those names when key changes.
    virtual QList<QByteArray> namesFromAuxKey(const QByteArray &key) const
    {
        Q_UNUSED(key);
        return {};
    }
};

} // namespace LockScope
