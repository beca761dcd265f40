#include "kinds/expirablesemaphore/expirablesemaphorelayout.h"

#include "kinds/auxreader.h"
#include "kinds/hashreading.h"
#include "kinds/locknames.h"
#include "kinds/semaphore/counterscripts.h"

#include <cctype>

namespace LockScope {

LockCapabilities ExpirableSemaphoreLayout::capabilities() const
{
    LockCapabilities c = SemaphoreLayout::capabilities();
    c.holderSet = true;
    c.tokenHolder = true; // a permit id says nothing of who took it
    return c;
}

QByteArray ExpirableSemaphoreLayout::permitSet(const QByteArray &name)
{
    return LockNames::suffixName(name, "timeout");
}

QByteArray ExpirableSemaphoreLayout::permitIdText(const QByteArray &member)
{
    // Redisson draws 16 random bytes for an id; no text id of any version is 16 bytes long (they are 32 hex digits).
    return member.size() == 16 ? member.toHex() : member;
}

QByteArray ExpirableSemaphoreLayout::permitIdBytes(const QByteArray &id)
{
    if (id.size() != 32)
        return {};
    for (const char c : id)
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return {};
    return QByteArray::fromHex(id);
}

ScriptCall ExpirableSemaphoreLayout::releasePermit(
    const QByteArray &name, const QByteArray &permitId, const QByteArray &publish)
{
    return { &CounterScripts::releasePermit(), { name, channel(name), permitSet(name) },
        { permitId, publish, permitIdBytes(permitId) } };
}

void ExpirableSemaphoreLayout::readStringAux(AuxReader &reader) const
{
    if (!isCandidate(reader.snapshot()))
        return;
    const QByteArray set = permitSet(reader.snapshot().name);
    reader.command({ "ZCARD", set }, [](KeySnapshot &s, const RedisResult &r) {
        // WRONGTYPE: some other key by that name, so no permit set.
        s.aux.get<CounterAux>().permitsTaken = r.ok() ? r.value.toInteger() : 0;
    });
    reader.command({ "ZRANGE", set, "0", QByteArray::number(kPermitsRead - 1), "WITHSCORES" },
        [](KeySnapshot &s, const RedisResult &r) {
            if (!r.ok())
                return;
            const RedisValue &v = r.value;
            for (int k = 0; k + 1 < v.size(); k += 2)
                s.aux.get<CounterAux>().permits.append({ v.at(k).bytes(), qint64(v.at(k + 1).bytes().toDouble()) });
        });
}

bool ExpirableSemaphoreLayout::classifyKey(const KeySnapshot &key, LockInfo &info) const
{
    const CounterAux &aux = auxOf(key);
    if (!isCandidate(key) || aux.permitsTaken <= 0)
        return false;
    describeCounter(key, info);
    info.confidence = LockInfo::Confidence::High;
    info.evidence << ClassifierText::tr("its permit set %1 holds %n permit(s) taken", nullptr, int(aux.permitsTaken))
                         .arg(QString::fromUtf8(permitSet(key.name)));
    describeWaiters(key, info);
    int expired = 0;
    for (const auto &[id, score] : aux.permits) {
        LockHolder h;
        h.owner = permitIdText(id);
        h.count = 1;
        h.expiresMs = score >= kNeverExpires ? 0 : score;
        if (h.expiresMs > 0 && h.expiresMs <= key.nowMs)
            ++expired;
        info.holders << h;
    }
    if (aux.permitsTaken > aux.permits.size())
        info.warnings << ClassifierText::tr("only the first %1 of its %2 permits taken are shown")
                             .arg(aux.permits.size())
                             .arg(aux.permitsTaken);
    if (expired > 0)
        info.warnings << ClassifierText::tr(
            "%n permit(s) expired: Redisson gives them back at the next acquire, not before", nullptr, expired);
    return true;
}

std::optional<CounterCall> ExpirableSemaphoreLayout::counterCall(
    const CounterRequest &request, const QByteArray &publish) const
{
    if (request.action != LockAction::ReleasePermit)
        return SemaphoreLayout::counterCall(request, publish);
    return CounterCall { releasePermit(request.name, request.permitId, publish), channel(request.name) };
}

QList<QByteArray> ExpirableSemaphoreLayout::namesFromAuxKey(const QByteArray &key) const
{
    // suffixName(N, "timeout"): the permit set "{N}:timeout" (only the braced form: a name with braces of its own is
    // too rare to read every "...:timeout" key for). The key may be some lock of its own too.
    if (key.startsWith('{') && key.endsWith("}:timeout")) {
        const QByteArray inner = key.mid(1, key.size() - 10);
        if (!inner.isEmpty() && !inner.contains('{') && !inner.contains('}'))
            return { inner, key };
    }
    return {};
}

} // namespace LockScope
