// The judgement every write by name passes first: what show and list would say is at that name.
#include "kinds/lockatname.h"

#include "kinds/locklayouts.h"
#include "kinds/lockscanner.h"
#include "redis/bytesformat.h"
#include "redis/rediscommander.h"

#include <QCoreApplication>

#include <memory>

namespace LockScope::LockAtName {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::LockAtName", text);
}
} // namespace

namespace {
// TYPE, and for a string whether it holds an integer: what a refusal says is there instead of a lock.
void readWhatIsThere(RedisCommander *connection, const QByteArray &name,
    std::function<void(const RedisError &, const QByteArray &type, bool integer)> done)
{
    auto type = std::make_shared<RedisResult>();
    connection->command({ "TYPE", name }, [type](const RedisResult &r) { *type = r; });
    connection->command(
        { "GETRANGE", name, "0", QByteArray::number(kMaxStringToken) }, [type, done](const RedisResult &value) {
            const bool integer = type->ok() && type->value.bytes() == "string" && value.ok() && value.value.isString()
                && isCounterValue(value.value.bytes());
            done(type->ok() ? RedisError() : type->error, type->value.bytes(), integer);
        });
}
} // namespace

void read(RedisCommander *connection, const QByteArray &name, const StringLockPatterns &patterns,
    std::function<void(const NameReading &)> done)
{
    read(connection, name, Options { patterns, false }, std::move(done));
}

void read(RedisCommander *connection, const QByteArray &name, const Options &how,
    std::function<void(const NameReading &)> done)
{
    LockScanner::Options options;
    options.stringPatterns = how.patterns;
    options.shardWaiters = how.shardWaiters;
    // Parented to the connection: a reading still on its way when the connection goes ends with it.
    auto *scanner = new LockScanner(connection, options, connection);
    auto reading = std::make_shared<NameReading>();
    reading->name = name;
    QObject::connect(scanner, &LockScanner::locksFound, scanner, [reading, name](const QList<LockInfo> &locks) {
        for (const LockInfo &l : locks)
            if (l.name == name)
                reading->lock = l;
    });
    QObject::connect(
        scanner, &LockScanner::finished, scanner, [scanner, connection, reading, done](const RedisError &error, int) {
            scanner->deleteLater();
            reading->error = error;
            if (error.isError() || reading->lock) {
                done(*reading);
                return;
            }
            // Nothing lock-shaped: say what is there instead, as show does.
            readWhatIsThere(connection, reading->name,
                [reading, done](const RedisError &error, const QByteArray &type, bool integer) {
                    reading->error = error;
                    reading->type = type;
                    reading->integer = integer;
                    done(*reading);
                });
        });
    scanner->readKeys({ name });
}

void explainNotALock(RedisCommander *connection, const QByteArray &name, const StringLockPatterns &patterns,
    std::function<void(const QString &why)> done)
{
    readWhatIsThere(
        connection, name, [name, patterns, done](const RedisError &error, const QByteArray &type, bool integer) {
            done(error.isError() ? error.message() : notALockText(name, type, patterns, integer));
        });
}

QString notALockText(const QByteArray &name, const QByteArray &type, const StringLockPatterns &patterns, bool integer)
{
    const QString shown = escapeBytes(name, 200);
    if (type == "none" || type.isEmpty())
        return tr("%1 does not exist").arg(shown);
    if (type == "string" && integer && patterns.declaredLibrary(name) != "redisson")
        return tr("%1 holds an integer and nobody waits on it: a Redisson semaphore or count-down latch is known by "
                  "its waiters, or by declaring its name (--layout-pattern redisson=%1); not a lock")
            .arg(shown);
    if (type == "string" && !patterns.matches(name))
        return tr(
            "%1 is a string outside the string lock patterns (--string-locks, or the connection profile's), so it is "
            "no lock")
            .arg(shown);
    if (type == "string")
        return tr("%1 is a string without a TTL, an integer (a counter such as semaphore permits) or a value too long "
                  "for a token: not a lock")
            .arg(shown);
    return tr("%1 is not a lock (it holds a %2)").arg(shown, QString::fromLatin1(type));
}

QString actionName(LockAction action)
{
    switch (action) {
    case LockAction::Release:
        return QStringLiteral("release");
    case LockAction::ForceRelease:
        return QStringLiteral("force-release");
    case LockAction::AddPermits:
        return QStringLiteral("add-permits");
    case LockAction::ReleasePermit:
        return QStringLiteral("release-permit");
    case LockAction::OpenLatch:
        return QStringLiteral("open-latch");
    case LockAction::RepairQueue:
        return QStringLiteral("repair-queue");
    case LockAction::Acquire:
        return QStringLiteral("acquire");
    }
    return {};
}

RedisError refusal(const NameReading &reading, LockAction action, const StringLockPatterns &patterns)
{
    if (reading.error.isError())
        return reading.error;
    if (!reading.lock) {
        // Nothing there: the action's own script finds nothing to change and says so in its own words.
        if (reading.type == "none")
            return {};
        return RedisError(RedisError::Kind::KindMismatch,
            tr("%1; %2 refused, nothing changed")
                .arg(notALockText(reading.name, reading.type, patterns, reading.integer), actionName(action)),
            "NOTALOCK");
    }
    if (action == LockAction::Acquire)
        return {}; // a lock: the acquire script checks its kind where nothing can change in between
    const LockLayout &layout = LockLayouts::forRecord(reading.lock->kind);
    if (layout.allows(action))
        return {};
    // A layout that is no lock says so in its own words when released as one ("a Redisson semaphore, not a lock").
    if (const QString own = layout.refusal(action, reading.name); !own.isEmpty())
        return RedisError(RedisError::Kind::KindMismatch, own, "WRONGKIND");
    return RedisError(RedisError::Kind::KindMismatch,
        tr("%1 is listed as a %2, and %3 does not apply to it; nothing changed")
            .arg(escapeBytes(reading.name, 200), LockLayouts::kindText(reading.lock->kind), actionName(action)),
        "WRONGKIND");
}

} // namespace LockScope::LockAtName
