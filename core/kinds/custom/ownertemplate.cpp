#include "kinds/custom/ownertemplate.h"

#include "kinds/lockclassifier.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::OwnerTemplate", text);
}

// "$.a.b[0]": the value at that path, or an undefined value.
QJsonValue atPath(const QJsonValue &root, const QByteArray &path)
{
    if (!path.startsWith('$'))
        return {};
    QJsonValue v = root;
    int i = 1;
    while (i < path.size()) {
        if (path.at(i) == '.') {
            int end = i + 1;
            while (end < path.size() && path.at(end) != '.' && path.at(end) != '[')
                ++end;
            const QString key = QString::fromUtf8(path.mid(i + 1, end - i - 1));
            if (key.isEmpty() || !v.isObject())
                return {};
            v = v.toObject().value(key);
            i = end;
        } else if (path.at(i) == '[') {
            const int end = path.indexOf(']', i);
            bool ok = false;
            const int index = path.mid(i + 1, end - i - 1).toInt(&ok);
            if (end < 0 || !ok || !v.isArray() || index < 0 || index >= v.toArray().size())
                return {};
            v = v.toArray().at(index);
            i = end + 1;
        } else {
            return {};
        }
    }
    return v;
}

QByteArray text(const QJsonValue &v)
{
    if (v.isString())
        return v.toString().toUtf8();
    if (v.isDouble())
        return QByteArray::number(qint64(v.toDouble()));
    return {};
}

bool validPath(const QByteArray &path)
{
    return path == "$" || ((path.startsWith("$.") || path.startsWith("$[")) && path.size() > 2);
}
} // namespace

qint64 parseLockTime(const QByteArray &raw)
{
    const QByteArray t = raw.trimmed();
    if (t.isEmpty())
        return 0;
    bool ok = false;
    const double number = t.toDouble(&ok);
    if (ok) {
        // Before 2001 in seconds (a counter, a flag such as "1") is no time a lock was taken at.
        if (number < 1e9)
            return 0;
        return number > 1e11 ? qint64(number) : qint64(number * 1000);
    }
    QDateTime when = QDateTime::fromString(QString::fromUtf8(t), Qt::ISODateWithMs);
    if (!when.isValid())
        when = QDateTime::fromString(QString::fromUtf8(t), Qt::ISODate);
    return when.isValid() ? when.toMSecsSinceEpoch() : 0;
}

std::optional<OwnerTemplate> OwnerTemplate::parse(const QByteArray &entry, QString *error)
{
    const int eq = entry.indexOf('=');
    if (eq <= 0 || eq == entry.size() - 1) {
        *error = tr("an owner template is GLOB=SPEC (got \"%1\")").arg(QString::fromUtf8(entry));
        return std::nullopt;
    }
    OwnerTemplate t;
    t.glob = entry.left(eq);
    t.spec = entry.mid(eq + 1);
    // A regex takes the rest of the spec whole, commas and all: the items before it are the others.
    QByteArray rest = t.spec;
    QList<QByteArray> items;
    while (!rest.isEmpty()) {
        if (rest.startsWith("regex:")) {
            items << rest;
            break;
        }
        const int comma = rest.indexOf(',');
        items << (comma < 0 ? rest : rest.left(comma));
        rest = comma < 0 ? QByteArray() : rest.mid(comma + 1);
    }
    const QByteArray source = items.isEmpty() ? QByteArray()
        : items.last().startsWith("regex:")   ? items.takeLast()
                                              : items.takeFirst();
    if (source.startsWith("regex:")) {
        t.source = Source::Regex;
        t.regex.setPattern(QString::fromUtf8(source.mid(6)));
        if (!t.regex.isValid()) {
            *error = tr("the owner template's regex does not compile: %1").arg(t.regex.errorString());
            return std::nullopt;
        }
        if (!t.regex.namedCaptureGroups().contains(QStringLiteral("owner"))) {
            *error = tr("the owner template's regex needs a group named owner: (?<owner>...)");
            return std::nullopt;
        }
    } else if (source.trimmed() == "value" || source.trimmed() == "value:") {
        t.source = Source::Value;
    } else if (source.startsWith("json:") && validPath(source.mid(5).trimmed())) {
        t.source = Source::Json;
        t.ownerPath = source.mid(5).trimmed();
    } else {
        *error = tr("an owner template says where the owner is: value, json:$.path or regex:PATTERN (got \"%1\")")
                     .arg(QString::fromUtf8(source));
        return std::nullopt;
    }
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QByteArray item = items.at(i).trimmed();
        const int at = item.indexOf('=');
        const QByteArray key = at > 0 ? item.left(at) : item;
        const QByteArray value = at > 0 ? item.mid(at + 1) : QByteArray();
        if (value.isEmpty()) {
            *error = tr("the owner template's item \"%1\" has no value").arg(QString::fromUtf8(item));
            return std::nullopt;
        }
        QByteArray *path = key == "host" ? &t.hostPath
            : key == "pid"               ? &t.pidPath
            : key == "since"             ? &t.sincePath
            : key == "run"               ? &t.runPath
                                         : nullptr;
        if (path) {
            if (t.source != Source::Json || !validPath(value)) {
                *error = tr("%1= takes a JSON path ($.field) in a json: template").arg(QString::fromUtf8(key));
                return std::nullopt;
            }
            *path = value;
        } else if (key == "heartbeat") {
            t.heartbeat = value;
        } else if (key == "queue") {
            // KEY:FORMAT, where KEY may hold colons itself: the format is the last ":value" or ":json:$...".
            const int json = value.lastIndexOf(":json:$");
            if (value.endsWith(":value")) {
                t.queue = value.left(value.size() - 6);
            } else if (json > 0 && validPath(value.mid(json + 6))) {
                t.queue = value.left(json);
                t.queueMemberPath = value.mid(json + 6);
            } else {
                *error = tr("queue= takes KEY:value or KEY:json:$.path (got \"%1\")").arg(QString::fromUtf8(value));
                return std::nullopt;
            }
            if (t.queue.isEmpty()) {
                *error = tr("queue= needs a key before its format");
                return std::nullopt;
            }
        } else if (key == "heartbeat-age") {
            bool ok = false;
            const qint64 seconds = value.toLongLong(&ok);
            if (!ok || seconds <= 0) {
                *error = tr("heartbeat-age takes seconds (got \"%1\")").arg(QString::fromUtf8(value));
                return std::nullopt;
            }
            t.heartbeatMaxAgeMs = seconds * 1000;
        } else {
            *error = tr("the owner template has an unknown item \"%1\" (host, pid, since, run, heartbeat, "
                        "heartbeat-age, queue)")
                         .arg(QString::fromUtf8(key));
            return std::nullopt;
        }
    }
    return t;
}

std::optional<OwnerReading> OwnerTemplate::read(const QByteArray &value) const
{
    OwnerReading r;
    switch (source) {
    case Source::Value:
        r.owner = value;
        break;
    case Source::Json: {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(value, &error);
        if (error.error != QJsonParseError::NoError)
            return std::nullopt;
        const QJsonValue root = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
        r.owner = text(atPath(root, ownerPath));
        r.host = text(atPath(root, hostPath));
        r.run = text(atPath(root, runPath));
        r.pid = text(atPath(root, pidPath)).toLongLong();
        r.sinceMs = parseLockTime(text(atPath(root, sincePath)));
        break;
    }
    case Source::Regex: {
        const QRegularExpressionMatch m = regex.match(QString::fromUtf8(value));
        if (!m.hasMatch())
            return std::nullopt;
        r.owner = m.captured(QStringLiteral("owner")).toUtf8();
        r.host = m.captured(QStringLiteral("host")).toUtf8();
        r.run = m.captured(QStringLiteral("run")).toUtf8();
        r.pid = m.captured(QStringLiteral("pid")).toLongLong();
        r.sinceMs = parseLockTime(m.captured(QStringLiteral("since")).toUtf8());
        break;
    }
    }
    if (r.owner.isEmpty())
        return std::nullopt;
    return r;
}

QByteArray OwnerTemplate::heartbeatKey(const QByteArray &name, const OwnerReading &reading) const
{
    if (heartbeat.isEmpty())
        return {};
    QByteArray key = heartbeat;
    key.replace("{owner}", reading.owner);
    key.replace("{run}", reading.run);
    key.replace("{host}", reading.host);
    key.replace("{pid}", reading.pid > 0 ? QByteArray::number(reading.pid) : QByteArray());
    key.replace("{name}", name);
    return key;
}

QByteArray OwnerTemplate::queueKey(const QByteArray &name) const
{
    if (queue.isEmpty())
        return {};
    QByteArray key = queue;
    key.replace("{name}", name);
    return key;
}

QByteArray OwnerTemplate::queueMemberOwner(const QByteArray &member) const
{
    if (queueMemberPath.isEmpty())
        return member;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(member, &error);
    if (error.error != QJsonParseError::NoError)
        return {};
    return text(atPath(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array()), queueMemberPath));
}

bool OwnerTemplate::describe(const QByteArray &name, LockHolder &holder) const
{
    const std::optional<OwnerReading> r = read(holder.owner);
    if (!r)
        return false;
    holder.client = r->owner;
    holder.thread = r->run;
    holder.host = r->host;
    holder.pid = r->pid;
    holder.sinceMs = r->sinceMs;
    holder.heartbeatKey = heartbeatKey(name, *r);
    return true;
}

} // namespace LockScope
