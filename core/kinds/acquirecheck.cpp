#include "kinds/acquirecheck.h"

#include "kinds/hashrecognition.h"
#include "kinds/locklayouts.h"
#include "kinds/locknames.h"
#include "redis/bytesformat.h"
#include "redis/redisvalue.h"

#include <QCoreApplication>
#include <QStringList>

namespace LockScope::AcquireCheck {

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(AcquireCheck)
};

QString shown(const QByteArray &key)
{
    return escapeBytes(key, 200);
}

// The mark's words for what Redis holds (HashMark::found, its aux keys in place of %1, %2, ...), in one pass: a key
// that contains "%2" stays as it is.
QString withKeys(const QString &text, const QStringList &keys)
{
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i) == QLatin1Char('%') && i + 1 < text.size() && text.at(i + 1).isDigit()) {
            const int n = text.at(i + 1).digitValue();
            if (n >= 1 && n <= keys.size()) {
                out += keys.at(n - 1);
                ++i;
                continue;
            }
        }
        out += text.at(i);
    }
    return out;
}

QString foundText(const QByteArray &found, const QByteArray &name)
{
    if (const HashMark *mark = HashRecognition::markOf(found)) {
        if (!mark->found)
            return LockLayouts::kindText(found); // a layout that has no words of its own: its kind's
        QStringList keys;
        for (auto key : mark->auxKeys)
            keys << shown(key(name));
        return withKeys(QCoreApplication::translate("AcquireCheck", mark->found), keys);
    }
    return Text::tr("a %1, not a lock").arg(QString::fromLatin1(found));
}
} // namespace

QByteArray lua()
{
    static const QByteArray generated = HashRecognition::lua();
    return generated;
}

QList<QByteArray> auxKeys(const QByteArray &name)
{
    return HashRecognition::auxKeys(name);
}

bool decode(const RedisValue &reply, AcquireResult *result)
{
    if (reply.isNil()) {
        result->acquired = true;
        return true;
    }
    if (reply.isInteger()) {
        result->ttlMs = reply.toInteger();
        return true;
    }
    if (reply.isArray() && reply.size() == 1 && reply.at(0).isInteger()) {
        result->acquired = true;
        result->fencingToken = reply.at(0).toInteger();
        return true;
    }
    return false;
}

RedisError explain(const RedisError &error, const QByteArray &name, const QString &wanted)
{
    const QString detail = error.message().section(QLatin1Char(' '), 1, 1);
    if (error.code() == "LOCKKIND")
        return RedisError(RedisError::Kind::KindMismatch,
            Text::tr("cannot acquire %1 as %2: it is %3; nothing was written")
                .arg(shown(name), wanted, foundText(detail.toLatin1(), name)),
            error.code());
    if (error.code() == "LOCKTOKEN") {
        const QString holds = detail == QLatin1String("string")
            ? Text::tr("a string that is not an integer, or one at the 64-bit limit")
            : Text::tr("a %1").arg(detail);
        return RedisError(RedisError::Kind::Reply,
            Text::tr("the fencing token key %1 is not an integer counter (it holds %2); nothing was written")
                .arg(shown(LockNames::fencingToken(name)), holds),
            error.code());
    }
    return error;
}

} // namespace LockScope::AcquireCheck
