#include "base/quantities.h"

#include <QDateTime>
#include <QRegularExpression>

#include <limits>

namespace LockScope {

namespace {
// n times the unit's scale, or -1 past what fits.
qint64 scaled(const QRegularExpressionMatch &m, qint64 scale)
{
    const qint64 n = m.captured(1).toLongLong();
    return n > std::numeric_limits<qint64>::max() / scale ? -1 : n * scale;
}
} // namespace

qint64 parseDurationMs(const QString &text)
{
    static const QRegularExpression shape(QStringLiteral("^\\s*(\\d{1,12})\\s*(ms|s|m|h|d)?\\s*$"));
    const QRegularExpressionMatch m = shape.match(text);
    if (!m.hasMatch())
        return -1;
    const QString unit = m.captured(2);
    return scaled(m,
        unit == QLatin1String("ms")      ? 1
            : unit == QLatin1String("m") ? 60 * 1000
            : unit == QLatin1String("h") ? 3600 * 1000
            : unit == QLatin1String("d") ? 24 * 3600 * 1000
                                         : 1000);
}

qint64 parseSizeBytes(const QString &text)
{
    static const QRegularExpression shape(
        QStringLiteral("^\\s*(\\d{1,15})\\s*([KMGT]?)i?B?\\s*$"), QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = shape.match(text);
    if (!m.hasMatch())
        return -1;
    const QString unit = m.captured(2).toUpper();
    return scaled(m,
        unit == QLatin1String("K")       ? 1LL << 10
            : unit == QLatin1String("M") ? 1LL << 20
            : unit == QLatin1String("G") ? 1LL << 30
            : unit == QLatin1String("T") ? 1LL << 40
                                         : 1);
}

qint64 parseTimeMs(const QString &text)
{
    static const QRegularExpression digits(QStringLiteral("^\\s*\\d{1,15}\\s*$"));
    if (digits.match(text).hasMatch())
        return text.trimmed().toLongLong();
    // Only with a zone: a bare local time means different moments on different machines.
    static const QRegularExpression zoned(QStringLiteral("(Z|[+-]\\d\\d:?\\d\\d)$"));
    const QString t = text.trimmed();
    if (!zoned.match(t).hasMatch())
        return -1;
    const QDateTime at = QDateTime::fromString(t, Qt::ISODateWithMs);
    return at.isValid() ? at.toMSecsSinceEpoch() : -1;
}

} // namespace LockScope
