#include "guide/guidewire.h"

#include <QJsonArray>

namespace LockScope::Guide::Wire {

namespace {
QJsonValue fromValue(const RedisValue &value)
{
    QJsonObject o;
    o.insert(QStringLiteral("t"), int(value.type()));
    switch (value.type()) {
    case RedisValue::Type::Nil:
        break;
    case RedisValue::Type::Integer:
        o.insert(QStringLiteral("i"), QString::number(value.toInteger()));
        break;
    case RedisValue::Type::Array: {
        QJsonArray a;
        for (const RedisValue &e : value.elements())
            a.append(fromValue(e));
        o.insert(QStringLiteral("a"), a);
        break;
    }
    case RedisValue::Type::Status:
    case RedisValue::Type::Error:
    case RedisValue::Type::String:
        o.insert(QStringLiteral("b"), fromBytes(value.bytes()));
        break;
    }
    return o;
}

RedisValue toValue(const QJsonValue &json)
{
    const QJsonObject o = json.toObject();
    const QByteArray bytes = toBytes(o.value(QStringLiteral("b")));
    switch (RedisValue::Type(o.value(QStringLiteral("t")).toInt())) {
    case RedisValue::Type::Nil:
        return RedisValue::nil();
    case RedisValue::Type::Integer:
        return RedisValue::integer(o.value(QStringLiteral("i")).toString().toLongLong());
    case RedisValue::Type::Array: {
        QList<RedisValue> elements;
        for (const QJsonValue &e : o.value(QStringLiteral("a")).toArray())
            elements << toValue(e);
        return RedisValue::array(elements);
    }
    case RedisValue::Type::Status:
        return RedisValue::status(bytes);
    case RedisValue::Type::Error:
        return RedisValue::error(bytes);
    case RedisValue::Type::String:
        return RedisValue::string(bytes);
    }
    return RedisValue::nil();
}
} // namespace

QJsonValue fromBytes(const QByteArray &bytes)
{
    return QString::fromLatin1(bytes.toBase64());
}

QByteArray toBytes(const QJsonValue &value)
{
    return QByteArray::fromBase64(value.toString().toLatin1());
}

QJsonArray fromList(const QList<QByteArray> &list)
{
    QJsonArray a;
    for (const QByteArray &b : list)
        a.append(fromBytes(b));
    return a;
}

QList<QByteArray> toList(const QJsonValue &value)
{
    QList<QByteArray> list;
    for (const QJsonValue &v : value.toArray())
        list << toBytes(v);
    return list;
}

QJsonObject fromRecord(const GuideRecord &r)
{
    QJsonObject o;
    o.insert(QStringLiteral("type"), int(r.type));
    o.insert(QStringLiteral("t"), QString::number(r.tMs));
    o.insert(QStringLiteral("actor"), fromBytes(r.actor));
    o.insert(QStringLiteral("op"), fromBytes(r.op));
    o.insert(QStringLiteral("script"), fromBytes(r.script));
    o.insert(QStringLiteral("keys"), fromList(r.keys));
    o.insert(QStringLiteral("argv"), fromList(r.argv));
    if (r.hasReply)
        o.insert(QStringLiteral("reply"), fromValue(r.reply));
    o.insert(QStringLiteral("java"), r.java);
    o.insert(QStringLiteral("event"), int(r.event));
    o.insert(QStringLiteral("ms"), QString::number(r.ms));
    o.insert(QStringLiteral("receivers"), r.receivers);
    o.insert(QStringLiteral("listeners"), r.listeners);
    o.insert(QStringLiteral("detail"), r.detail);
    return o;
}

GuideRecord toRecord(const QJsonObject &o)
{
    GuideRecord r;
    r.type = GuideRecord::Type(o.value(QStringLiteral("type")).toInt());
    r.tMs = o.value(QStringLiteral("t")).toString().toLongLong();
    r.actor = toBytes(o.value(QStringLiteral("actor")));
    r.op = toBytes(o.value(QStringLiteral("op")));
    r.script = toBytes(o.value(QStringLiteral("script")));
    r.keys = toList(o.value(QStringLiteral("keys")));
    r.argv = toList(o.value(QStringLiteral("argv")));
    r.hasReply = o.contains(QStringLiteral("reply"));
    if (r.hasReply)
        r.reply = toValue(o.value(QStringLiteral("reply")));
    r.java = o.value(QStringLiteral("java")).toString();
    r.event = ActorEvent(o.value(QStringLiteral("event")).toInt());
    r.ms = o.value(QStringLiteral("ms")).toString().toLongLong();
    r.receivers = o.value(QStringLiteral("receivers")).toInt(-1);
    r.listeners = o.value(QStringLiteral("listeners")).toInt(-1);
    r.detail = o.value(QStringLiteral("detail")).toString();
    return r;
}

QJsonObject fromConnection(const ConnectionOptions &c)
{
    QJsonObject o;
    o.insert(QStringLiteral("host"), c.host);
    o.insert(QStringLiteral("port"), c.port);
    o.insert(QStringLiteral("user"), fromBytes(c.user));
    o.insert(QStringLiteral("password"), fromBytes(c.password));
    o.insert(QStringLiteral("db"), c.db);
    o.insert(QStringLiteral("tls"), c.tls);
    o.insert(QStringLiteral("tlsCaFile"), c.tlsCaFile);
    o.insert(QStringLiteral("tlsCertFile"), c.tlsCertFile);
    o.insert(QStringLiteral("tlsKeyFile"), c.tlsKeyFile);
    o.insert(QStringLiteral("tlsServerName"), c.tlsServerName);
    o.insert(QStringLiteral("tlsInsecure"), c.tlsInsecure);
    o.insert(QStringLiteral("connectTimeoutMs"), c.connectTimeoutMs);
    o.insert(QStringLiteral("commandTimeoutMs"), c.commandTimeoutMs);
    return o;
}

ConnectionOptions toConnection(const QJsonObject &o)
{
    ConnectionOptions c;
    c.host = o.value(QStringLiteral("host")).toString();
    c.port = quint16(o.value(QStringLiteral("port")).toInt());
    c.user = toBytes(o.value(QStringLiteral("user")));
    c.password = toBytes(o.value(QStringLiteral("password")));
    c.db = o.value(QStringLiteral("db")).toInt();
    c.tls = o.value(QStringLiteral("tls")).toBool();
    c.tlsCaFile = o.value(QStringLiteral("tlsCaFile")).toString();
    c.tlsCertFile = o.value(QStringLiteral("tlsCertFile")).toString();
    c.tlsKeyFile = o.value(QStringLiteral("tlsKeyFile")).toString();
    c.tlsServerName = o.value(QStringLiteral("tlsServerName")).toString();
    c.tlsInsecure = o.value(QStringLiteral("tlsInsecure")).toBool();
    c.connectTimeoutMs = o.value(QStringLiteral("connectTimeoutMs")).toInt(5000);
    c.commandTimeoutMs = o.value(QStringLiteral("commandTimeoutMs")).toInt(5000);
    c.topology = ConnectionOptions::Topology::Standalone;
    return c;
}

} // namespace LockScope::Guide::Wire
