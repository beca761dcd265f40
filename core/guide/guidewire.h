#pragma once

#include "guide/guiderecord.h"
#include "redis/connectionoptions.h"

#include <QJsonObject>

namespace LockScope::Guide {

// What a process client and its child say to each other on the child's stdin and stdout, one JSON object per line
// (ProcessClient, runGuideActor). Bytes travel as base64: keys and arguments may hold anything.
namespace Wire {
QJsonObject fromRecord(const GuideRecord &record);
GuideRecord toRecord(const QJsonObject &object);
// The server's address and credentials. Sent on the child's stdin, never on its command line (ps shows that).
QJsonObject fromConnection(const ConnectionOptions &options);
ConnectionOptions toConnection(const QJsonObject &object);
QJsonValue fromBytes(const QByteArray &bytes);
QByteArray toBytes(const QJsonValue &value);
QJsonArray fromList(const QList<QByteArray> &list);
QList<QByteArray> toList(const QJsonValue &value);
} // namespace Wire

} // namespace LockScope::Guide
