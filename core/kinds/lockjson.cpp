#include "kinds/lockjson.h"

#include "kinds/locklayouts.h"
#include "redis/jsonwriter.h"

#include <QDateTime>

#include <cstring>

namespace LockScope {

namespace {
QString isoTime(qint64 epochMs)
{
    return QDateTime::fromMSecsSinceEpoch(epochMs, Qt::UTC).toString(Qt::ISODateWithMs);
}

void writeTexts(JsonWriter &w, const QStringList &texts);

void numberOrNull(JsonWriter &w, qint64 value)
{
    if (value < 0)
        w.null();
    else
        w.number(value);
}

// Keys are written sorted, as QJsonObject keeps them, so the text is what the QJsonObject of earlier versions gave.
void writeHolder(JsonWriter &w, const LockHolder &h, qint64 nowMs, const HolderFacts *facts)
{
    w.beginObject();
    w.key("client").bytes(h.client);
    if (facts) {
        w.key("connection");
        if (!facts->connection) {
            w.null();
        } else {
            const HolderFacts::Connection &c = *facts->connection;
            w.beginObject();
            w.key("addr").bytes(c.addr);
            w.key("gone").boolean(c.gone);
            w.key("lib").bytes(c.lib);
            w.key("name").bytes(c.name);
            w.key("seen").text(c.seenMs > 0 ? isoTime(c.seenMs) : QString());
            w.endObject();
        }
    }
    w.key("count").number(h.count);
    if (h.deadReader)
        w.key("dead").boolean(true);
    if (h.expiresMs > 0) { // an expirable semaphore's permit
        w.key("expired").boolean(h.expiresMs <= nowMs);
        w.key("expires_at").text(isoTime(h.expiresMs));
    }
    // What the token tells of its holder, where its library writes it in.
    if (!h.host.isEmpty())
        w.key("host").bytes(h.host);
    if (facts) {
        w.key("last_renewed_ms");
        numberOrNull(w, facts->lastRenewedMs);
        w.key("liveness").bytes(facts->liveness.isEmpty() ? QByteArray("unknown") : facts->liveness);
        w.key("liveness_evidence");
        writeTexts(w, facts->livenessEvidence);
        w.key("missed_renewals");
        if (facts->missedRenewals < 0)
            w.null();
        else
            w.real(facts->missedRenewals);
    }
    if (!h.node.isEmpty())
        w.key("node").bytes(h.node);
    w.key("owner").bytes(h.owner);
    if (h.pid > 0)
        w.key("pid").number(h.pid);
    if (facts) {
        w.key("renewal_period_ms");
        numberOrNull(w, facts->renewalPeriodMs);
    }
    if (h.sinceMs > 0)
        w.key("since").text(isoTime(h.sinceMs));
    w.key("thread").bytes(h.thread);
    if (facts) {
        w.key("transitions");
        numberOrNull(w, facts->transitions);
    }
    if (h.writer)
        w.key("writer").boolean(true);
    w.endObject();
}

void writeTexts(JsonWriter &w, const QStringList &texts)
{
    w.beginArray();
    for (const QString &t : texts)
        w.text(t);
    w.endArray();
}
} // namespace

void writeLockJson(JsonWriter &w, const LockInfo &lock, qint64 nowMs, const HolderFactsSource &facts)
{
    // Redisson's semaphores and latches carry their count under a layout's own key ("permits_free", "count"), which
    // takes its sorted place among the others.
    const char *counterKey = LockLayouts::forRecord(lock.kind).counterField();
    if (lock.counter < 0)
        counterKey = nullptr;
    const auto counterBefore = [&](const char *next) {
        if (counterKey && std::strcmp(counterKey, next) < 0) {
            w.key(counterKey).number(lock.counter);
            counterKey = nullptr;
        }
    };
    w.beginObject();
    counterBefore("confidence");
    w.key("confidence").latin1(LockInfo::confidenceName(lock.confidence).constData());
    counterBefore("evidence");
    w.key("evidence");
    writeTexts(w, lock.evidence);
    counterBefore("holders");
    w.key("holders").beginArray();
    for (const LockHolder &h : lock.holders) {
        const std::optional<HolderFacts> known = facts ? facts(lock, h) : std::nullopt;
        writeHolder(w, h, nowMs, known ? &*known : nullptr);
    }
    w.endArray();
    counterBefore("kind");
    w.key("kind").latin1(LockInfo::kindName(lock.kind).constData());
    counterBefore("library");
    w.key("library").bytes(lock.library);
    counterBefore("mode");
    if (lock.mode.isEmpty())
        w.key("mode").null();
    else
        w.key("mode").bytes(lock.mode);
    counterBefore("name");
    w.key("name").bytes(lock.name);
    counterBefore("queue");
    w.key("queue").beginArray();
    for (const auto &[owner, deadline] : lock.queue) {
        w.beginObject();
        w.key("deadline_ms").number(deadline);
        w.key("owner").bytes(owner);
        w.key("remaining_ms").number(deadline < 0 ? -1 : qMax<qint64>(0, deadline - nowMs));
        w.endObject();
    }
    w.endArray();
    counterBefore("ttl_ms");
    w.key("ttl_ms").number(lock.ttlMs);
    counterBefore("waiters");
    if (lock.waiters < 0)
        w.key("waiters").null();
    else
        w.key("waiters").number(lock.waiters);
    counterBefore("warnings");
    w.key("warnings");
    writeTexts(w, lock.warnings);
    counterBefore("watchdog");
    // One snapshot cannot see renewals; `watch` can.
    w.key("watchdog").latin1("unknown");
    if (counterKey)
        w.key(counterKey).number(lock.counter);
    w.endObject();
}

QByteArray lockJsonText(const LockInfo &lock, qint64 nowMs, const HolderFactsSource &facts)
{
    QByteArray out;
    JsonWriter writer(&out);
    writeLockJson(writer, lock, nowMs, facts);
    return out;
}

} // namespace LockScope
