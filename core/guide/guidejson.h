#pragma once

#include "guide/guiderecord.h"
#include "guide/scenario.h"

#include <QJsonObject>

namespace LockScope::Guide {

// One line of `lockscope-cli guide --json` (conventions.md): a step with what it sent, what came back, what the
// script ran and the state after; or a command or client event between steps.
QJsonObject recordJson(const QByteArray &scenario, const GuideRecord &record);
// One scenario of `guide --list --json`.
QJsonObject scenarioJson(const Scenario &scenario);
QByteArray eventName(ActorEvent event); // "woken", "sleeping", ...

} // namespace LockScope::Guide
