// \(t) — placeholder until its first type lands.
