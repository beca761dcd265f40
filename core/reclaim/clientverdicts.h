#pragma once

namespace LockScope {

class HolderWatch;
struct ClientPlan;

// Marks each hold of a release-client plan with its holder's verdict (alive, and the verdict's one line), as the watch
// judges it now: the release refuses live holders unless the person insists. Queue places hold nothing and are not
// judged. The caller reads CLIENT LIST first (HolderWatch::readClients), so that the connections are as of now.
void judgeClientItems(ClientPlan *plan, const HolderWatch &watch);

} // namespace LockScope
