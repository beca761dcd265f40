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

// Keys are written sorted, as QJsonObject keeps them, so the text is what the QJsonObject of earlier versions gave.
void writeHolder(JsonWriter &w, const LockHolder &h, qint64 nowMs)
{
    w.beginObject();
    w.key("client").bytes(h.client);
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
    if (!h.node.isEmpty())
        w.key("node").bytes(h.node);
    w.key("owner").bytes(h.owner);
    if (h.pid > 0)
        w.key("pid").number(h.pid);
    if (h.sinceMs > 0)
        w.key("since").text(isoTime(h.sinceMs));
    w.key("thread").bytes(h.thread);
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

void writeLockJson(JsonWriter &w, const LockInfo &lock, qint64 nowMs)
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
    for (const LockHolder &h : lock.holders)
        writeHolder(w, h, nowMs);
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

QByteArray lockJsonText(const LockInfo &lock, qint64 nowMs)
{
    QByteArray out;
    JsonWriter writer(&out);
    writeLockJson(writer, lock, nowMs);
    return out;
}

} // namespace LockScope
