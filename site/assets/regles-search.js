/* regles: the site's search box. It ranks from the same model as `regles search`
   (assets/search-model.json, written by extract/search/model.py) the same way as
   extract/search/engine.py: same word lists and patterns (read from the model), same typo
   matching, same thesaurus, same scores. Every map keyed by a typed word has no prototype
   (Object.create(null)), so "constructor" or "__proto__" typed in the box is just a word.
   Results are written with textContent and DOM nodes, never as HTML from the text. */
(function () {
  "use strict";

  var K1 = 1.5, PREFIX_WEIGHT = 0.9, INFLECTION_WEIGHT = 0.9, FRENCH_BASE_WEIGHT = 0.9, FLOOR_FILL = 10, NEAR_WEIGHTS = [1.0, 0.8, 0.6], SOUND_WEIGHT = 0.8;
  var SYNONYM_WEIGHT = 0.8, PHRASE_PART_WEIGHT = 0.7, PAIR_WEIGHT = 0.5, EXACT_WEIGHT = 1.0, NAMED_WEIGHT = 0.8;
  var COVERAGE_POWER = 0.5, MIN_COVERAGE = 0.34, FALLBACK_COVERAGE = 0.17, GAME_BEST = 0.8, NEAR_CANDIDATES = 5;
  var UNREACHED_IGNORED = true, CHANGE_WEIGHT = 2.0, HEADLINE_WEIGHT = 0.25, PHRASE_APART = 0.5, PHRASE_TOGETHER = 2.0;
  var SUB_RULE_LIFT = 0.001, TITLE_FIELD = 0, CONTEXT_FIELD = 2, HEADLINE_FIELDS = 3, TITLE_BIT = 1;  // as engine.py
  var NUMBERISH = /^[\d.]+[a-z]?$/;
  var BREAK = "|", BREAK_TOKEN = "qqbreakqq";  // as words.BREAK: where table talk was taken out, no expression of the thesaurus spans
  var ELISION_TYPED = /^(?:l|d|j|m|n|s|t|c|qu)(?=[aeiouyh])/;

  function bare(obj) {  // a prototype-less copy of a plain object's own entries
    var out = Object.create(null);
    if (obj) Object.keys(obj).forEach(function (k) { out[k] = obj[k]; });
    return out;
  }
  function setOf(list) {
    var out = Object.create(null);
    list.forEach(function (w) { out[w] = true; });
    return out;
  }
  function has(map, key) { return Object.prototype.hasOwnProperty.call(map, key); }

  function fold(text) {  // as words.fold: "dé", "dés" (dice) keep a spelling apart from "de", "des"
    // (no lookbehind: Safari before 16.4 cannot parse one, and the whole script would not run)
    return text.toLowerCase().normalize("NFC").replace(/(^|[^\p{L}\p{N}_])dé(s?)(?![\p{L}\p{N}_])/gu, "$1dee$2")
      .replace(/œ/g, "oe").replace(/æ/g, "ae").replace(/[’‘`ʼ]/g, "'")
      .normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  }

  function Model(raw) {
    var self = this;
    this.docs = raw.docs; this.texts = raw.texts; this.lengths = raw.lengths; this.parents = raw.parents;
    this.titleParts = raw.title_parts || [];
    this.fieldBits = Object.create(null);  // stem -> Map(entry -> its fields holding the stem, as bits)
    this.weights = raw.weights; this.b = raw.b;
    this.averages = raw.averages.map(function (a) { return a || 1.0; });
    this.terms = bare(raw.terms); this.pairs = bare(raw.pairs); this.exact = bare(raw.exact); this.named = bare(raw.named);
    this.numbers = bare(raw.numbers); this.vocab = bare(raw.vocab); this.labels = bare(raw.labels);
    this.count = this.docs.length;
    this.unknownIdf = Math.log(1 + (this.count + 0.5) / 0.5);
    this.stop = setOf(raw.stop_words); this.talkWords = setOf(raw.talk_words);
    this.talk = new RegExp(raw.talk, "g");
    this.token = new RegExp(raw.token, "g");
    this.elision = new RegExp(raw.elision);
    var reflexive = raw.reflexive || { marker: "~", pronouns: [], other_subjects: [], elision: "(?!)" };  // as words.REFLEXIVE
    this.reflexive = reflexive.marker; this.pronouns = setOf(reflexive.pronouns);
    this.otherSubjects = setOf(reflexive.other_subjects); this.reflexiveElision = new RegExp(reflexive.elision);
    this.causative = setOf(reflexive.causative || []);  // as words.CAUSATIVE: "se faire" + a verb is a passive
    this.numberQuery = new RegExp(raw.number_query);
    this.change = new RegExp(raw.change, "g");  // as words.CHANGE: "ce qui a changé", "errata"
    this.changed = raw.changed; this.changedSet = setOf(raw.changed);
    this.frames = (raw.frames || []).map(function (f) {  // as words.ANSWER_FRAMES: "combien …" favours the rules stating a number
      return { asked: new RegExp(f[1]), weight: f[2], chosen: setOf(f[3]) };
    });
    var english = raw.english_forms || [[], []];  // a model cached from before version 6: none
    this.englishBases = english[0]; this.englishEndings = english[1];
    this.frenchBases = raw.french_bases || [];  // as words.FRENCH_BASES (none in a model from before them)
    this.frenchLeast = raw.french_least || 1;
    this.nameWords = setOf(raw.name_words || []);
    this.scopes = raw.scopes || []; this.scopeLabels = bare(raw.scope_labels);
    this.scopesByFirst = Object.create(null);
    this.scopes.forEach(function (phrase) {
      if (!has(self.scopesByFirst, phrase[0][0])) self.scopesByFirst[phrase[0][0]] = [];
      self.scopesByFirst[phrase[0][0]].push(phrase);
    });
    this.soundRules = raw.sound_rules.map(function (rule) {
      return [new RegExp(rule[0], "g"), rule[1].replace(/\\(\d)/g, "$$$1")];
    });
    this.rules = Object.create(null);
    raw.thesaurus.forEach(function (rule) {
      var first = rule[0][0];
      if (!has(self.rules, first)) self.rules[first] = [];
      self.rules[first].push(rule);
    });
    this.byLetter = Object.create(null); this.bySound = Object.create(null);
    raw.typo_words.forEach(function (word) {
      if (!has(self.byLetter, word[0])) self.byLetter[word[0]] = [];
      self.byLetter[word[0]].push(word);
      var key = self.sound(word);
      if (key.length >= 3) {
        if (!has(self.bySound, key)) self.bySound[key] = [];
        self.bySound[key].push(word);
      }
    });
    this.dfs = Object.create(null);
    this.bm25s = Object.create(null);  // stem or expression -> Map(entry -> its score at full weight)
    // Every stem a word can reach: the corpus's and the thesaurus's ("écrasent" → ecras → piétiner).
    this.knownStems = Object.create(null);
    Object.keys(this.terms).forEach(function (s) { self.knownStems[s] = true; });
    Object.keys(this.vocab).forEach(function (w) {
      self.vocab[w].forEach(function (item) { self.knownStems[typeof item === "string" ? item : item[0]] = true; });
    });
  }

  Model.prototype.sound = function (word) {
    this.soundRules.forEach(function (rule) { word = word.replace(rule[0], rule[1]); });
    return word;
  };

  Model.prototype.wordsOf = function (text, talk, reflexive) {  // as words.words_of
    var folded = fold(text), found = [], self = this, marked = false, broken = false, previous = "";
    if (talk) folded = folded.replace(this.talk, " " + BREAK_TOKEN + " ");
    this.token.lastIndex = 0;
    var tokens = folded.match(this.token) || [];
    tokens.forEach(function (token) {
      var pronoun = has(self.pronouns, token) ? token : self.reflexiveElision.test(token) ? token[0] : "";
      if (pronoun && (pronoun === "s" || pronoun === "se" || !has(self.otherSubjects, previous))) marked = true;
      previous = token;
      if (has(self.causative, token)) marked = false;
      var word = token.replace(self.elision, "");
      if (has(self.stop, word)) return;
      if (word === BREAK_TOKEN || (talk && has(self.talkWords, word))) { broken = true; return; }
      if (broken && found.length && reflexive) found.push(BREAK);
      broken = false;
      if (marked && reflexive) found.push(self.reflexive);
      marked = false;
      found.push(word);
    });
    return found;
  };

  Model.prototype.stems = function (word) {
    var found = Object.create(null), list = has(this.vocab, word) ? this.vocab[word] : [];
    list.forEach(function (item) {
      var stem = typeof item === "string" ? item : item[0], weight = typeof item === "string" ? 1.0 : item[1];
      found[stem] = Math.max(has(found, stem) ? found[stem] : 0, weight);
    });
    return found;
  };

  function Concept(words) {
    this.words = words; this.alternatives = Object.create(null); this.approximate = false;
    this.guessed = false;  // reached through a guessed base ("horaires" → "horaire"): not a sure word of the books
    this.games = Object.create(null);  // stem -> the only games it is true of (a game's own synonyms)
    this.typed = Object.create(null);  // the stems its words reach themselves, before the thesaurus
  }
  Concept.prototype.add = function (stem, weight, games) {  // as engine.Concept.add
    if (has(this.alternatives, stem)) {
      if (!games || !has(this.games, stem)) delete this.games[stem];
      else { var merged = bare(this.games[stem]); Object.keys(games).forEach(function (g) { merged[g] = true; }); this.games[stem] = merged; }
      this.alternatives[stem] = Math.max(this.alternatives[stem], weight);
      return;
    }
    this.alternatives[stem] = weight;
    if (games) this.games[stem] = bare(games);
  };
  Concept.prototype.keys = function () {
    var out = Object.create(null), alts = this.alternatives;
    Object.keys(alts).forEach(function (s) { if (alts[s] >= 0.8) out[s] = true; });
    return out;
  };

  function distance(a, b, limit) {  // optimal string alignment, as words.distance
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    var prev2 = [], prev = [], i, j;
    for (j = 0; j <= b.length; j++) prev.push(j);
    for (i = 1; i <= a.length; i++) {
      var cur = [i], best = i;
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var value = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, prev2[j - 2] + 1);
        cur.push(value);
        if (value < best) best = value;
      }
      if (best > limit) return limit + 1;
      prev2 = prev; prev = cur;
    }
    return prev[b.length];
  }

  Model.prototype.near = function (word) {
    var limit = word.length <= 3 ? 0 : word.length <= 5 ? 1 : 2, found = Object.create(null);
    if (limit && word && has(this.byLetter, word[0])) {
      this.byLetter[word[0]].forEach(function (candidate) {
        if (Math.abs(candidate.length - word.length) <= limit) {
          var d = distance(word, candidate, limit);
          if (d <= limit) found[candidate] = NEAR_WEIGHTS[d];
        }
      });
    }
    var key = this.sound(word);
    if (key.length >= 3 && has(this.bySound, key)) {
      this.bySound[key].forEach(function (candidate) {
        found[candidate] = Math.max(has(found, candidate) ? found[candidate] : 0, SOUND_WEIGHT);
      });
    }
    var self = this;  // as SearchIndex.near: equally near, the word more entries hold first
    return Object.keys(found).map(function (w) { return [w, found[w], self.wordDf(w)]; })
      .sort(function (x, y) { return y[1] - x[1] || y[2] - x[2] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0); })
      .slice(0, NEAR_CANDIDATES).map(function (item) { return [item[0], item[1]]; });
  };

  Model.prototype.wordDf = function (word) {
    if (!has(this.vocab, word) || !this.vocab[word].length) return 0;
    var first = this.vocab[word][0];
    return this.df(typeof first === "string" ? first : first[0]);
  };

  function replaced(word, rules, least) {  // as words._replaced
    var out = [];
    if (least === undefined) least = 2;
    rules.forEach(function (rule) {
      var ending = rule[0];
      if (word.length - ending.length >= least && word.slice(word.length - ending.length) === ending) {
        out.push(word.slice(0, word.length - ending.length) + rule[1]);
      }
    });
    return out;
  }

  Model.prototype.englishForms = function (word) {  // as words.english_forms
    var bases = [word].concat(replaced(word, this.englishBases)), self = this, seen = Object.create(null), forms = [];
    var all = bases.slice(1);
    bases.forEach(function (base) { all = all.concat(replaced(base, self.englishEndings)); });
    all.forEach(function (form) {
      if (form !== word && !has(seen, form)) { seen[form] = true; forms.push(form); }
    });
    return forms;
  };

  Model.prototype.alternatives = function (word) {
    var concept = new Concept([word]), self = this, stems, s;
    if (has(this.vocab, word)) {
      stems = this.stems(word);
      for (s in stems) concept.add(s, stems[s]);
      return concept;
    }
    if (NUMBERISH.test(word)) return concept;
    var stripped = word.replace(ELISION_TYPED, "");
    if (stripped !== word && has(this.vocab, stripped)) {
      stems = this.stems(stripped);
      for (s in stems) concept.add(s, stems[s]);
      return concept;
    }
    var forms = this.englishForms(word);  // "fly": the English edition's "Flying" (a word of a name only)
    for (var f = 0; f < forms.length; f++) {
      if (has(this.nameWords, forms[f]) && has(this.vocab, forms[f])) {
        stems = this.stems(forms[f]);
        for (s in stems) concept.add(s, stems[s] * INFLECTION_WEIGHT);
        return concept;
      }
    }
    var bases = replaced(word, this.frenchBases, this.frenchLeast);  // "tape", "volent": an inflection of a word the model knows
    for (var b = 0; b < bases.length; b++) {
      if (has(this.vocab, bases[b])) {
        stems = this.stems(bases[b]);
        for (s in stems) concept.add(s, stems[s] * FRENCH_BASE_WEIGHT);
        concept.guessed = true;
        return concept;
      }
    }
    concept.approximate = true;
    for (var k = word.length - 1; k >= Math.max(4, word.length - 4); k--) {
      if (has(this.knownStems, word.slice(0, k))) { concept.add(word.slice(0, k), PREFIX_WEIGHT); break; }
    }
    this.near(word).forEach(function (pair) {
      var found = self.stems(pair[0]);
      for (var stem in found) if (found[stem] >= 1.0) concept.add(stem, pair[1]);
    });
    return concept;
  };

  Model.prototype.thesaurusMatch = function (concepts, i, breaks) {  // as Understanding.thesaurus_match
    var best = null, rank = [0, false], self = this, firsts = Object.keys(concepts[i].keys()).sort(), candidates = [];
    firsts.forEach(function (first) { if (has(self.rules, first)) candidates = candidates.concat(self.rules[first]); });
    if (has(this.rules, this.reflexive)) {  // the expression that agrees with the pronoun wins, then the longer
      candidates = candidates.concat(this.rules[this.reflexive].filter(function (rule) { return firsts.indexOf(rule[0][1]) >= 0; }));
    }
    candidates.forEach(function (rule) {
      var key = rule[0], targets = rule[1], game = rule[2];
      var pronominal = key[0] === self.reflexive, phrase = pronominal ? key.slice(1) : key;
      if (i + phrase.length > concepts.length) return;
      for (var k = 1; k < phrase.length; k++) if (!has(concepts[i + k].keys(), phrase[k]) || breaks.has(i + k)) return;
      var agrees = pronominal === Boolean(concepts[i].reflexive);
      if (best === null || (agrees && !rank[1]) || (agrees === rank[1] && phrase.length > rank[0])) {
        best = [phrase.length, new Map()]; rank = [phrase.length, agrees];
      }
      if (phrase.length !== rank[0] || agrees !== rank[1]) return;
      targets.forEach(function (t) {  // target -> games it is true of, null: every game
        if (!game || (best[1].has(t) && best[1].get(t) === null)) best[1].set(t, null);
        else { var games = best[1].get(t) || Object.create(null); games[game] = true; best[1].set(t, games); }
      });
    });
    return best;
  };

  Model.prototype.queryWords = function (text) {
    var words = this.wordsOf(text, true, true), marker = this.reflexive;
    return words.some(function (w) { return w !== marker && w !== BREAK; }) ? words : this.wordsOf(text, false, true);
  };

  // As scopes.find_scope: the games and documents the words name (longest phrase first at each
  // place; a one-word name of six letters or more one edit away in a word the books do not use).
  Model.prototype.findScope = function (words, namesAlone) {
    var scope = { words: [], games: Object.create(null), documents: Object.create(null) }, i = 0, self = this;
    while (i < words.length) {
      var best = [];
      (has(this.scopesByFirst, words[i]) ? this.scopesByFirst[words[i]] : []).forEach(function (phrase) {
        var size = phrase[0].length;
        if (words.slice(i, i + size).join(" ") !== phrase[0].join(" ") || (best.length && size < best[0][0].length)) return;
        best = best.filter(function (p) { return p[0].length === size; }).concat([phrase]);
      });
      if (!best.length && !has(this.vocab, words[i]) && words[i].length >= 5) {
        var word = words[i];
        best = this.scopes.filter(function (p) { return p[0].length === 1 && p[0][0].length >= 6 && distance(word, p[0][0], 1) <= 1; });
      }
      if (!best.length) { scope.words.push(words[i]); i += 1; continue; }
      if (scope.words.length && scope.words[scope.words.length - 1] === this.reflexive) scope.words.pop();  // "se" before a name
      best.forEach(function (phrase) {
        if (phrase[2]) scope.documents[phrase[1] + "/" + phrase[2]] = true; else scope.games[phrase[1]] = true;
      });
      i += best[0][0].length;
    }
    var marker = this.reflexive;
    if (!scope.words.some(function (w) { return w !== marker && w !== BREAK; }) && !namesAlone) return { words: words.slice(), games: Object.create(null), documents: Object.create(null) };
    return scope;
  };

  // As SearchIndex.scope: a name of another game than the filter chosen is a word of the query.
  Model.prototype.scope = function (text, game, namesAlone) {
    var words = this.queryWords(text), found = this.findScope(words, namesAlone), none = { words: words, games: Object.create(null), documents: Object.create(null) };
    var games = Object.keys(found.games), documents = Object.keys(found.documents);
    if (game && games.length && !has(found.games, game)) return none;
    if (game) {
      var inside = documents.filter(function (d) { return d.indexOf(game + "/") === 0; });
      if (documents.length && !inside.length) return none;
      found.documents = setOf(inside);
    }
    return found;
  };

  Model.prototype.shown = function (scope) {  // as SearchIndex.shown
    var self = this, keys = Object.keys(scope.games).sort().concat(Object.keys(scope.documents).sort());
    return keys.map(function (k) { return has(self.scopeLabels, k) ? self.scopeLabels[k] : k; }).join(", ") || null;
  };

  Model.prototype.understand = function (text) { return this.understandWords(this.queryWords(text)); };

  Model.prototype.understandWords = function (words) {
    var self = this;
    var concepts = [], breaks = new Set();
    words.forEach(function (w, k) {  // as SearchIndex.understand_words: the reflexive marker marks the next word
      if (w === BREAK) { breaks.add(concepts.length); return; }
      if (w === self.reflexive) return;
      var c = self.alternatives(w);
      c.typed = setOf(Object.keys(c.alternatives));
      c.reflexive = k > 0 && words[k - 1] === self.reflexive;
      concepts.push(c);
    });
    var primaries = [];  // as SearchIndex.understand_words: an empty place where talk was taken out
    concepts.forEach(function (c, k) {
      if (k && breaks.has(k)) primaries.push([]);
      primaries.push(Object.keys(c.alternatives).filter(function (s) { return c.alternatives[s] >= 0.8; }).slice(0, 2));
    });
    var merged = [], i = 0;
    while (i < concepts.length) {
      var match = this.thesaurusMatch(concepts, i, breaks);
      if (match === null) { merged.push(concepts[i]); i += 1; continue; }
      var length = match[0], concept;
      if (length === 1) {
        concept = concepts[i];
        // as SearchIndex.understand: a guessed word the thesaurus reads through one of its near
        // words is understood, and its farther guesses go
        if (concept.approximate) {
          Object.keys(concept.alternatives).forEach(function (s) {
            if (concept.alternatives[s] < 0.8) { delete concept.alternatives[s]; delete concept.games[s]; }
          });
        }
      } else {
        var parts = concepts.slice(i, i + length);
        concept = new Concept([].concat.apply([], parts.map(function (c) { return c.words; })));
        parts.forEach(function (part) {
          concept.approximate = concept.approximate || part.approximate;
          concept.guessed = concept.guessed || part.guessed;
          for (var t in part.typed) concept.typed[t] = true;
          for (var s in part.alternatives) {
            concept.add(s, part.alternatives[s] * PHRASE_PART_WEIGHT, has(part.games, s) ? part.games[s] : null);
          }
        });
        var said = parts.map(function (part) {  // as SearchIndex.understand_words: the words typed are an expression too
          return Object.keys(part.alternatives).filter(function (s) { return part.alternatives[s] >= 0.8; })[0];
        });
        if (said.every(function (s) { return s !== undefined; })) concept.add(said.join(" "), PHRASE_PART_WEIGHT, null);
      }
      match[1].forEach(function (games, stem) { concept.add(stem, SYNONYM_WEIGHT, games); });
      merged.push(concept);
      i += length;
    }
    var seen = Object.create(null), unique = [];
    merged.forEach(function (c) {
      var key = c.words.join("\u0000");
      if (!has(seen, key)) { seen[key] = true; unique.push(c); }
    });
    return [unique, primaries];
  };

  Model.prototype.df = function (stem) {
    if (!has(this.dfs, stem)) {
      var postings = has(this.terms, stem) ? this.terms[stem] : [], docs = Object.create(null), n = 0;
      for (var k = 0; k < postings.length; k += 3) if (!has(docs, postings[k])) { docs[postings[k]] = true; n++; }
      this.dfs[stem] = n;
    }
    return this.dfs[stem];
  };
  Model.prototype.known = function (stem) {  // as Ranking.known: some entry holds the stem (every stem of an expression)
    var self = this;
    return stem.split(" ").every(function (part) { return has(self.terms, part); });
  };
  Model.prototype.idf = function (stem) {
    if (stem.indexOf(" ") >= 0) {  // an expression: its words' mean
      var parts = stem.split(" "), sum = 0, self = this;
      parts.forEach(function (part) { sum += self.idf(part); });
      return sum / parts.length;
    }
    var df = this.df(stem);
    return Math.log(1 + (this.count - df + 0.5) / (df + 0.5));
  };

  Model.prototype.conceptScores = function (concept, allowed) {
    var scores = new Map(), self = this;
    Object.keys(concept.alternatives).sort().forEach(function (stem) {
      var weight = concept.alternatives[stem];
      if (stem.indexOf(" ") >= 0) {  // a book's expression of several words: as Ranking.phrase
        var phraseGames = has(concept.games, stem) ? concept.games[stem] : null;
        self.phrase(stem).forEach(function (full, doc) {
          if (!allowed(doc) || (phraseGames !== null && !has(phraseGames, self.docs[doc][3]))) return;
          var score = weight * full;
          if (score > (scores.get(doc) || 0)) scores.set(doc, score);
        });
        return;
      }
      if (!has(self.terms, stem)) return;
      var postings = self.terms[stem], weighted = new Map();
      var games = has(concept.games, stem) ? concept.games[stem] : null;
      for (var k = 0; k < postings.length; k += 3) {
        var doc = postings[k], f = postings[k + 1], tf = postings[k + 2];
        if (!allowed(doc) || (games !== null && !has(games, self.docs[doc][3]))) continue;
        var norm = 1 - self.b[f] + self.b[f] * self.lengths[doc][f] / self.averages[f];
        weighted.set(doc, (weighted.get(doc) || 0) + self.weights[f] * tf / norm);
      }
      var idf = self.idf(stem);
      weighted.forEach(function (wtf, doc) {
        var score = weight * idf * wtf * (K1 + 1) / (K1 + wtf);
        if (score > (scores.get(doc) || 0)) scores.set(doc, score);
      });
    });
    return scores;
  };

  Model.prototype.bm25 = function (stem) {  // each entry's BM25 score for a stem at full weight, as Ranking.bm25
    if (!has(this.bm25s, stem)) {
      var postings = has(this.terms, stem) ? this.terms[stem] : [], weighted = new Map(), found = new Map();
      for (var k = 0; k < postings.length; k += 3) {
        var doc = postings[k], f = postings[k + 1], tf = postings[k + 2];
        var norm = 1 - this.b[f] + this.b[f] * this.lengths[doc][f] / this.averages[f];
        weighted.set(doc, (weighted.get(doc) || 0) + this.weights[f] * tf / norm);
      }
      var idf = this.idf(stem);
      weighted.forEach(function (wtf, doc) { found.set(doc, 1.0 * idf * wtf * (K1 + 1) / (K1 + wtf)); });
      this.bm25s[stem] = found;
    }
    return this.bm25s[stem];
  };

  // As Ranking.phrase: an expression's score, PHRASE_TOGETHER times its words' mean where an entry
  // holds them together (as two words typed, whatever its length), PHRASE_APART of it where not.
  Model.prototype.phrase = function (stems) {
    if (!has(this.bm25s, stems)) {
      var parts = stems.split(" "), found = new Map(), together = null, self = this;
      parts.forEach(function (part) {
        self.bm25(part).forEach(function (score, doc) { found.set(doc, (found.get(doc) || 0) + score); });
      });
      for (var i = 0; i + 1 < parts.length; i++) {
        var key = parts[i] + " " + parts[i + 1], postings = has(this.pairs, key) ? this.pairs[key] : [], held = new Set();
        for (var k = 0; k < postings.length; k += 2) held.add(postings[k]);
        together = together === null ? held : new Set(Array.from(together).filter(function (d) { return held.has(d); }));
      }
      found.forEach(function (score, doc) {
        found.set(doc, (together && together.has(doc) ? PHRASE_TOGETHER : PHRASE_APART) * score / parts.length);
      });
      this.bm25s[stems] = found;
    }
    return this.bm25s[stems];
  };

  Model.prototype.conceptWeight = function (concept) {
    var best = null;
    for (var stem in concept.alternatives) {
      if (!this.known(stem)) continue;
      var w = concept.alternatives[stem] * this.idf(stem);
      if (best === null || w > best) best = w;
    }
    return best === null ? this.unknownIdf : best;
  };

  // What an entry holding the whole query holds, as SearchIndex.total_weight: a word reaching
  // nothing counts only while the words surely reached are not a majority.
  Model.prototype.totalWeight = function (concepts) {
    var self = this, total = 0;
    var reached = concepts.filter(function (c) { return self.reaches(c); });
    var kept = UNREACHED_IGNORED && this.mostlyReached(concepts) ? reached : concepts;
    kept.forEach(function (c) { total += self.conceptWeight(c); });
    return total || 1.0;
  };

  Model.prototype.reaches = function (concept) {
    var self = this;
    return Object.keys(concept.alternatives).some(function (s) { return self.known(s); });
  };

  // As SearchIndex.mostly_reached: more than half of the query's words reach the corpus exactly.
  Model.prototype.mostlyReached = function (concepts) {
    var self = this;
    return 2 * concepts.filter(function (c) { return !c.approximate && !c.guessed && self.reaches(c); }).length > concepts.length;
  };

  Model.prototype.rank = function (concepts, primaries, allowed, confined) {
    var self = this, total = this.totalWeight(concepts);
    var sums = new Map(), held = new Map();
    concepts.forEach(function (concept) {
      var weight = self.conceptWeight(concept);
      self.conceptScores(concept, allowed).forEach(function (score, doc) {
        sums.set(doc, (sums.get(doc) || 0) + score);
        held.set(doc, (held.get(doc) || 0) + weight);
      });
    });
    for (var i = 0; i + 1 < primaries.length; i++) {
      // As SearchIndex.rank: each word's stems; an entry holding the two together gets the best bonus once.
      var together = new Map();
      primaries[i].forEach(function (a) {
        primaries[i + 1].forEach(function (b) {
          var key = a + " " + b;
          if (!has(self.pairs, key)) return;
          var postings = self.pairs[key], bonus = PAIR_WEIGHT * (self.idf(a) + self.idf(b)) / 2;
          for (var k = 0; k < postings.length; k += 2) {
            if (sums.has(postings[k]) && bonus > (together.get(postings[k]) || 0)) together.set(postings[k], bonus);
          }
        });
      });
      together.forEach(function (bonus, doc) { sums.set(doc, sums.get(doc) + bonus); });
    }
    if (HEADLINE_WEIGHT) this.addHeadlineBonus(concepts, sums);
    var whole = primaries.filter(function (p) { return p.length; }).map(function (p) { return p[0]; }).join(" ");
    (has(this.exact, whole) ? this.exact[whole] : []).forEach(function (doc) {
      if (sums.has(doc)) sums.set(doc, sums.get(doc) + EXACT_WEIGHT * total);
    });
    (has(this.named, whole) ? this.named[whole] : []).forEach(function (doc) {
      if (sums.has(doc)) sums.set(doc, sums.get(doc) + NAMED_WEIGHT * total);
    });
    // As Ranking.rank: a lower floor for a question whose words the books mostly know, then any
    // entry holding some of it when the search is confined to a game or document.
    var floors = [concepts.length > 1 ? MIN_COVERAGE : -1.0], ranked = [];
    if (this.mostlyReached(concepts)) floors.push(FALLBACK_COVERAGE);
    if (confined) floors.push(0.0);
    for (var f = 0; f < floors.length; f++) {
      var floor = floors[f];
      ranked = [];
      sums.forEach(function (score, doc) {
        var coverage = Math.min(1.0, held.get(doc) / total);
        if (coverage < floor) return;
        ranked.push([doc, score * Math.pow(coverage, COVERAGE_POWER) * self.docs[doc][8], coverage]);
      });
      if (ranked.length >= FLOOR_FILL) break;  // fewer than a page of results: the next floor, all together
    }
    if (concepts.length > 1) ranked = this.subRulesFirst(ranked, concepts);
    ranked.sort(function (x, y) { return y[1] - x[1] || x[0] - y[0]; });
    return ranked;
  };

  // As Ranking.add_headline_bonus: a word typed in an entry's title or names, HEADLINE_WEIGHT of its idf again;
  // not for an entry whose title the query holds only in part.
  Model.prototype.addHeadlineBonus = function (concepts, sums) {
    var self = this, bests = [], inTitle = new Map();
    concepts.forEach(function (concept) {
      var best = new Map(), titled = new Set();
      Object.keys(concept.typed).sort().forEach(function (stem) {
        if (!has(concept.alternatives, stem) || concept.alternatives[stem] < 1.0) return;
        var bonus = HEADLINE_WEIGHT * self.idf(stem);
        self.fields(stem).forEach(function (bits, doc) {
          if ((bits & HEADLINE_FIELDS) && sums.has(doc) && bonus > (best.get(doc) || 0)) {
            best.set(doc, bonus);
            if (bits & TITLE_BIT) titled.add(doc);
          }
        });
      });
      titled.forEach(function (doc) { inTitle.set(doc, (inTitle.get(doc) || 0) + 1); });
      bests.push(best);
    });
    bests.forEach(function (best) {
      Array.from(best.keys()).sort(function (a, b) { return a - b; }).forEach(function (doc) {
        if (bests.length > 1 && inTitle.has(doc) && inTitle.get(doc) < self.titleParts[doc]) return;  // no part of its title held whole; a one-word query names its rule
        sums.set(doc, sums.get(doc) + best.get(doc));
      });
    });
  };

  Model.prototype.fields = function (stem) {  // as SearchIndex.fields
    if (!has(this.fieldBits, stem) && stem.indexOf(" ") >= 0) {  // an expression: the entries holding all its words
      var parts = stem.split(" ").map(this.fields, this), all = new Map();
      parts[0].forEach(function (bits, doc) {
        if (parts.slice(1).every(function (other) { return other.has(doc); })) all.set(doc, bits);
      });
      parts.slice(1).forEach(function (other) { all.forEach(function (bits, doc) { all.set(doc, bits | other.get(doc)); }); });
      this.fieldBits[stem] = all;
    }
    if (!has(this.fieldBits, stem)) {
      var found = new Map(), postings = has(this.terms, stem) ? this.terms[stem] : [];
      for (var k = 0; k < postings.length; k += 3) found.set(postings[k], (found.get(postings[k]) || 0) | (1 << postings[k + 1]));
      this.fieldBits[stem] = found;
    }
    return this.fieldBits[stem];
  };

  Model.prototype.heldOwn = function (doc, concepts) {  // as SearchIndex.holds_own, for each concept: headings left out
    var game = this.docs[doc][3], found = Object.create(null), self = this;
    concepts.forEach(function (concept, n) {
      for (var stem in concept.alternatives) {
        var games = has(concept.games, stem) ? concept.games[stem] : null;
        if ((games === null || has(games, game)) && ((self.fields(stem).get(doc) || 0) & ~(1 << CONTEXT_FIELD))) {
          found[n] = true;
          break;
        }
      }
    });
    return found;
  };

  Model.prototype.subRulesFirst = function (ranked, concepts) {  // as SearchIndex.sub_rules_first
    var scores = new Map(), typed = Object.create(null), lifted = new Map(), self = this;
    ranked.forEach(function (r) { scores.set(r[0], r[1]); });
    concepts.forEach(function (c) { for (var t in c.typed) typed[t] = true; });
    ranked.forEach(function (r) {
      var doc = r[0], score = r[1], parent = self.parents[doc];
      if (parent < 0 || !scores.has(parent) || scores.get(parent) <= score || self.lengths[doc][TITLE_FIELD]) return;
      var topic = Object.keys(self.heldOwn(parent, concepts)), own = self.heldOwn(doc, concepts);
      if (!topic.length || !topic.every(function (n) { return has(own, n); })) return;
      for (var stem in typed) if ((self.fields(stem).get(parent) || 0) & HEADLINE_FIELDS) return;
      lifted.set(doc, scores.get(parent) + SUB_RULE_LIFT * score);
    });
    if (!lifted.size) return ranked;
    return ranked.map(function (r) { return lifted.has(r[0]) ? [r[0], lifted.get(r[0]), r[2]] : r; });
  };

  Model.prototype.bestOfEachGame = function (ranked) {
    if (!ranked.length) return ranked;
    var top = ranked[0][1], docs = this.docs, seen = Object.create(null), lifted = [ranked[0]], chosen = Object.create(null);
    seen[docs[ranked[0][0]][3]] = true;
    for (var i = 1; i < ranked.length; i++) {
      var game = docs[ranked[i][0]][3];
      if (!has(seen, game) && ranked[i][1] >= GAME_BEST * top) lifted.push(ranked[i]);
      seen[game] = true;
    }
    lifted.forEach(function (item) { chosen[item[0]] = true; });
    return lifted.concat(ranked.filter(function (item) { return !has(chosen, item[0]); }));
  };

  Model.prototype.search = function (text, game, limit) {
    var docs = this.docs, self = this;
    text = text.replace(/[\u0000-\u001f\u007f]/g, " ").replace(/\s+/g, " ").trim().slice(0, 500);
    limit = limit || 10;
    function allowed(doc, number) {
      var row = docs[doc];
      return (!game || row[3] === game) && (number || row[7] !== "deleted");
    }
    var number = fold(text).match(this.numberQuery);
    if (number && has(this.numbers, number[1])) {
      var found = this.numbers[number[1]].filter(function (d) { return allowed(d, true); });
      if (found.length) return { hits: found.slice(0, limit).map(function (d) { return [d, 0]; }), marked: Object.create(null), approximate: false };
    }
    var folded = fold(text), bare = folded.replace(this.change, " "), change = bare !== folded;  // as words.change_asked
    var scope = this.scope(bare, game, change), shown = this.shown(scope);
    function scoped(doc) {
      var row = docs[doc];
      return allowed(doc, change) && (!shown || ((!Object.keys(scope.games).length || has(scope.games, row[3]))
        && (!Object.keys(scope.documents).length || has(scope.documents, row[3] + "/" + row[4]))));
    }
    var understood = this.understandWords(scope.words), concepts = understood[0].filter(function (c) { return c.words.length; });
    if (change && !concepts.length) {  // "errata": every change
      return { hits: this.changed.filter(scoped).slice(0, limit).map(function (d) { return [d, 0]; }),
               marked: Object.create(null), approximate: false, scope: shown };
    }
    if (!concepts.length) return { hits: [], marked: Object.create(null), approximate: false, scope: shown };
    var ranked = this.rank(concepts, understood[1], scoped, Boolean(game) || Boolean(shown));
    this.frames.forEach(function (frame) {  // as SearchIndex.search: a question's frame favours the entries answering in kind
      if (!frame.asked.test(folded)) return;
      ranked = ranked.map(function (r) { return has(frame.chosen, r[0]) ? [r[0], r[1] * frame.weight, r[2]] : r; });
      ranked.sort(function (x, y) { return y[1] - x[1] || x[0] - y[0]; });
    });
    if (change) {  // as ranking.favoured: the entries errata changed or write weigh CHANGE_WEIGHT more
      var chosen = this.changedSet;
      ranked = ranked.map(function (r) { return has(chosen, r[0]) ? [r[0], r[1] * CHANGE_WEIGHT, r[2]] : r; });
      ranked.sort(function (x, y) { return y[1] - x[1] || x[0] - y[0]; });
    }
    var named = Object.create(null);
    Object.keys(scope.games).concat(Object.keys(scope.documents)).forEach(function (k) { named[k.split("/")[0]] = true; });
    if (!game && Object.keys(named).length !== 1) ranked = this.bestOfEachGame(ranked);
    var marked = Object.create(null), approximate = false;
    concepts.forEach(function (c) {
      for (var s in c.alternatives) s.split(" ").forEach(function (part) { marked[part] = true; });
      if (c.approximate && Object.keys(c.alternatives).length) approximate = true;
    });
    return { hits: ranked.slice(0, limit).map(function (r) { return [r[0], r[1]]; }), marked: marked, approximate: approximate, scope: shown };
  };

  /* The window of the text with most matched words; each matched word wrapped in <mark>. */
  Model.prototype.snippet = function (text, marked, width) {
    width = width || 180;
    var self = this, spans = [], re = /[\p{L}\p{N}_]+(?:['’][\p{L}\p{N}_]+)*/gu, m;
    while ((m = re.exec(text)) !== null) {
      var word = fold(m[0]).replace(this.elision, "");
      var stems = this.stems(word), hit = false;
      for (var s in stems) if (marked[s]) hit = true;
      if (hit && !has(this.stop, word)) {
        var start = m.index + (m[0].length - m[0].replace(/^(?:l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu|quoiqu)['’](?=[\p{L}\p{N}_])/iu, "").length);
        spans.push([start, m.index + m[0].length]);
      }
    }
    var begin = 0;
    if (spans.length) {
      var best = 0, bestCount = -1;
      spans.forEach(function (span, i) {
        var count = spans.filter(function (o) { return span[0] <= o[0] && o[0] < span[0] + width; }).length;
        if (count > bestCount) { best = i; bestCount = count; }
      });
      begin = Math.max(0, spans[best][0] - 40);
      begin = begin ? text.lastIndexOf(" ", begin - 1) + 1 : 0;
    }
    var end = Math.min(text.length, begin + width);
    if (end < text.length) { var cut = text.lastIndexOf(" ", end - 1); if (cut > begin) end = cut; }
    var parts = [], at = begin;
    spans.forEach(function (span) {
      if (span[0] < begin || span[1] > end) return;
      parts.push([text.slice(at, span[0]), false], [text.slice(span[0], span[1]), true]);
      at = span[1];
    });
    parts.push([text.slice(at, end), false]);
    if (begin > 0) parts.unshift(["…", false]);
    if (end < text.length) parts.push(["…", false]);
    return parts;
  };

  /* ---------------------------------------------------------------- the box */

  var model = null, loading = null;
  function load(base) {
    if (!loading) {
      loading = fetch(base + "/assets/search-model.json").then(function (r) { return r.json(); })
        .then(function (raw) { model = new Model(raw); window.reglesModel = model; return model; });
    }
    return loading;
  }

  /* What a result shows of a text: no pilcrow or heading mark a page's permalinks may carry, and
     the blank lines between blocks as one space. Display only: the ranking reads the model's text. */
  function plain(text) { return text.replace(/\u00b6/g, " ").replace(/\s+/g, " "); }

  /* A snippet's parts ([text, matched]) as DOM nodes: matched words in <mark>, and a book's icon,
     whose token is "[ralliement]" in the text (corpus/<game>/icons.toml), as the badge the rule
     pages show, the marks inside it kept. Only lower-case words: "Résistant [X]" stays text. */
  var ICON = /\[([a-z\u00e0-\u00ff][a-z\u00e0-\u00ff' -]*)\]/g;
  function snippetInto(parent, parts) {
    var pieces = [], text = "";
    parts.forEach(function (part) {
      var shown = plain(part[0]);
      pieces.push([text.length, text.length + shown.length, part[1]]);
      text += shown;
    });
    function add(into, from, to) {  // text[from:to], its matched words marked
      pieces.forEach(function (piece) {
        var a = Math.max(from, piece[0]), b = Math.min(to, piece[1]);
        if (a >= b) return;
        if (!piece[2]) { into.appendChild(document.createTextNode(text.slice(a, b))); return; }
        var mark = document.createElement("mark");
        mark.textContent = text.slice(a, b);
        into.appendChild(mark);
      });
    }
    var at = 0, m;
    ICON.lastIndex = 0;
    while ((m = ICON.exec(text)) !== null) {
      add(parent, at, m.index);
      var badge = document.createElement("span"), hidden = document.createElement("span");
      badge.className = "regles-icon"; badge.title = "Icône « " + m[1] + " »";
      hidden.className = "regles-visually-hidden"; hidden.textContent = "icône ";
      badge.appendChild(hidden);
      add(badge, m.index + 1, m.index + m[0].length - 1);
      parent.appendChild(badge);
      at = m.index + m[0].length;
    }
    var cut = /\s*\[[a-z\u00e0-\u00ff' -]*(?=\u2026$)/.exec(text);  // a token the window cut: "[attaque à…"
    add(parent, at, cut ? cut.index : text.length);
    if (cut) parent.appendChild(document.createTextNode(" \u2026"));
  }

  /* A result's title: its number and title ("41 Engagement"); a sub-rule without a title of its
     own, its number and its topic's ("41.5 — Engagement", the nearest enclosing entry with a title). */
  function resultTitle(doc) {
    var row = model.docs[doc];
    if (row[2]) return row[6] ? row[6] + " " + row[2] : row[2];
    if (!row[6]) return row[0];
    for (var up = model.parents[doc], seen = 0; up >= 0 && seen < 64; up = model.parents[up], seen++) {
      if (model.docs[up][2]) return row[6] + " \u2014 " + model.docs[up][2];
    }
    return row[6];
  }

  function render(list, status, base, query, game) {
    var found = model.search(query, game, 10);
    var focused = list.contains(document.activeElement);  // the keyboard was on a result being replaced
    list.textContent = "";
    found.hits.forEach(function (pair) {
      var row = model.docs[pair[0]], item = document.createElement("li"), link = document.createElement("a");
      item.className = "regles-search-result";
      item.dataset.id = row[0]; item.dataset.game = row[3];
      link.href = base + "/" + row[1];
      link.className = "regles-search-link";
      link.textContent = plain(resultTitle(pair[0])) + (row[7] === "deleted" ? " (supprimé)" : "");
      var label = document.createElement("span");
      label.className = "regles-search-label";
      var gameName = has(model.labels, row[3]) ? model.labels[row[3]] : row[3];
      var book = has(model.labels, row[3] + "/" + row[4]) ? model.labels[row[3] + "/" + row[4]] : row[4];
      label.textContent = gameName + " · " + book;
      var text = document.createElement("p");
      text.className = "regles-search-snippet";
      snippetInto(text, model.snippet(model.texts[pair[0]], found.marked));
      item.appendChild(link); item.appendChild(label); item.appendChild(text);
      list.appendChild(item);
    });
    status.textContent = !query.trim() ? "" : !found.hits.length ? "Aucun résultat pour « " + query + " »"
      : (found.scope ? "dans " + found.scope + (found.approximate ? " · résultats approchés" : "") : found.approximate ? "Résultats approchés" : "");
    if (focused) (list.querySelector("a") || list.closest("#regles-search").querySelector("input")).focus();
  }

  window.reglesSearch = function (query, game) {  // for tests: the ids the box would show
    return load(window.REGLES_BASE || "").then(function () {
      return model.search(query, game || null, 10).hits.map(function (pair) { return model.docs[pair[0]][0]; });
    });
  };

  window.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("regles-search");
    if (!root) return;
    // MkDocs gives "." or ".." on a page and "/" on the 404 page: without its trailing slash, so
    // that "/" + path never makes "//assets/…" (protocol-relative: another host).
    var base = (root.dataset.base || "").replace(/\/+$/, "");
    window.REGLES_BASE = base;
    var input = root.querySelector(".regles-search-input"), select = root.querySelector(".regles-search-game");
    var list = root.querySelector(".regles-search-results"), status = root.querySelector(".regles-search-status");
    var pending = null;
    function update() {
      var query = input.value, game = select ? select.value : "";
      remember(query, game);
      load(base).then(function () {
        if (input.value !== query) return;  // a newer keystroke will render
        render(list, status, base, query, game);
        root.classList.toggle("regles-search-open", !!query.trim());
      });
    }
    /* The query and the game filter kept in this page's history entry (history.replaceState): Back
       from a result comes to the page with its query typed and its results shown again. */
    function remember(query, game) {
      var state = history.state && typeof history.state === "object" ? history.state : null;
      var kept = state && state.reglesSearch;
      if ((kept ? kept.query : "") === query && (kept ? kept.game : "") === game) return;
      var next = Object.create(null);  // the page's other state kept (structured clone: a plain object again)
      if (state) Object.keys(state).forEach(function (k) { next[k] = state[k]; });
      next.reglesSearch = query.trim() ? { query: query, game: game } : null;
      try { history.replaceState(next, ""); } catch (e) { /* a browser refusing: the box works without */ }
    }
    function restore() {
      var kept = history.state && history.state.reglesSearch;
      if (!kept || !kept.query || input.value === kept.query && root.classList.contains("regles-search-open")) return;
      input.value = kept.query;
      if (select && kept.game !== undefined) {
        for (var i = 0; i < select.options.length; i++) if (select.options[i].value === kept.game) select.value = kept.game;
      }
      update();
    }
    input.addEventListener("input", function () { clearTimeout(pending); pending = setTimeout(update, 30); });
    if (select) select.addEventListener("change", update);
    // The keyboard: ↓ and ↑ move through the results (the focused one is outlined), Enter opens
    // the focused result (in the box: the first), Escape goes back to the box (in the box: clears it).
    function links() { return Array.prototype.slice.call(list.querySelectorAll(".regles-search-link")); }
    input.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { input.value = ""; update(); }
      if (event.key === "Enter") {  // the first result of what is typed now, not of a pending update
        event.preventDefault();
        clearTimeout(pending);
        var query = input.value, game = select ? select.value : "";
        load(base).then(function () {
          render(list, status, base, query, game);
          root.classList.toggle("regles-search-open", !!query.trim());
          var first = list.querySelector("a");
          if (first) window.location.href = first.href;
        });
      }
      if (event.key === "ArrowDown" && links().length) { event.preventDefault(); links()[0].focus(); }
    });
    list.addEventListener("keydown", function (event) {
      var all = links(), at = all.indexOf(document.activeElement);
      if (at < 0) return;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        var next = at + (event.key === "ArrowDown" ? 1 : -1);
        if (next < 0) input.focus(); else all[Math.min(next, all.length - 1)].focus();
      } else if (event.key === "Home" || event.key === "End") {
        event.preventDefault();
        all[event.key === "Home" ? 0 : all.length - 1].focus();
      } else if (event.key === "Escape") {
        event.preventDefault(); input.focus();
      }
    });
    // The model (over a megabyte) loads when the reader turns to the box, not with every page:
    // a rule page stays light. The game filter's options are written by the header template.
    function fill() {  // without options from the template: one per game of the model
      if (!select || select.options.length > 1) return;
      Object.keys(model.labels).filter(function (k) { return k.indexOf("/") < 0; }).sort().forEach(function (game) {
        var option = document.createElement("option");
        option.value = game; option.textContent = model.labels[game];
        select.appendChild(option);
      });
    }
    function prepare() { load(base).then(fill); }
    restore();
    window.addEventListener("pageshow", function (event) { if (event.persisted) restore(); });
    ["focus", "pointerdown", "touchstart"].forEach(function (name) {
      input.addEventListener(name, prepare, { passive: true });
      if (select) select.addEventListener(name, prepare, { passive: true });
    });
  });
})();
