// The five session methods as `rpc.discover` described them while their result schemas were
// written by hand (the host built from main 432d4aa, captured with js/test/host-discover.js):
// what SessionSchemaDerivationTests holds the derived schemas to. `session_request`'s params
// hold the namespace methods' params schemas as they too were written by hand, which
// NamespaceParamsTests holds each method's derived schema to. A Swift literal rather than a
// file in Tests/Fixtures, whose every JSON file the fixtures runner reads as cases.
let handWrittenSessionMethods = #"""
    [
      {
        "errors": [
          {
            "code": 5104,
            "message": "Unsupported namespace key"
          },
          {
            "code": 5100,
            "message": "Unsupported chains"
          },
          {
            "code": 5101,
            "message": "Unsupported methods"
          },
          {
            "code": 5102,
            "message": "Unsupported events"
          },
          {
            "code": 5103,
            "message": "Unsupported accounts"
          },
          {
            "code": 5000,
            "message": "User rejected"
          },
          {
            "code": -1,
            "message": "Authorization failed"
          },
          {
            "code": 8000,
            "message": "Session request expired"
          }
        ],
        "name": "session_connect",
        "paramStructure": "by-name",
        "params": [
          {
            "name": "origin",
            "required": false,
            "schema": {
              "anyOf": [
                {
                  "description": "The site the call is for, as the browser reported it to the extension (never what the page says): only that site's sessions are seen and used. Left out: the extension's own sessions, without a site",
                  "maxLength": 255,
                  "pattern": "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$",
                  "type": "string"
                },
                {
                  "type": "null"
                }
              ]
            }
          },
          {
            "name": "requiredNamespaces",
            "required": false,
            "schema": {
              "anyOf": [
                {
                  "additionalProperties": false,
                  "maxProperties": 16,
                  "patternProperties": {
                    "^[-a-z0-9]{3,8}$": {
                      "properties": {
                        "chains": {
                          "items": {
                            "description": "A CAIP-2 chain id, namespace:reference (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)",
                            "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$",
                            "type": "string"
                          },
                          "maxItems": 64,
                          "minItems": 1,
                          "type": "array"
                        },
                        "events": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        },
                        "methods": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        }
                      },
                      "required": [
                        "chains",
                        "methods",
                        "events"
                      ],
                      "title": "Namespace",
                      "type": "object"
                    },
                    "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$": {
                      "properties": {
                        "chains": false,
                        "events": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        },
                        "methods": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        }
                      },
                      "required": [
                        "methods",
                        "events"
                      ],
                      "title": "ChainNamespace",
                      "type": "object"
                    }
                  },
                  "title": "ProposalNamespaces",
                  "type": [
                    "object",
                    "null"
                  ]
                },
                {
                  "type": "null"
                }
              ]
            }
          },
          {
            "name": "optionalNamespaces",
            "required": false,
            "schema": {
              "anyOf": [
                {
                  "additionalProperties": false,
                  "maxProperties": 16,
                  "patternProperties": {
                    "^[-a-z0-9]{3,8}$": {
                      "properties": {
                        "chains": {
                          "items": {
                            "description": "A CAIP-2 chain id, namespace:reference (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)",
                            "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$",
                            "type": "string"
                          },
                          "maxItems": 64,
                          "minItems": 1,
                          "type": "array"
                        },
                        "events": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        },
                        "methods": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        }
                      },
                      "required": [
                        "chains",
                        "methods",
                        "events"
                      ],
                      "title": "Namespace",
                      "type": "object"
                    },
                    "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$": {
                      "properties": {
                        "chains": false,
                        "events": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        },
                        "methods": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        }
                      },
                      "required": [
                        "methods",
                        "events"
                      ],
                      "title": "ChainNamespace",
                      "type": "object"
                    }
                  },
                  "title": "ProposalNamespaces",
                  "type": [
                    "object",
                    "null"
                  ]
                },
                {
                  "type": "null"
                }
              ]
            }
          },
          {
            "name": "metadata",
            "required": true,
            "schema": {
              "properties": {
                "description": {
                  "maxLength": 500,
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "icons": {
                  "items": {
                    "maxLength": 2048,
                    "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://",
                    "type": "string"
                  },
                  "maxItems": 8,
                  "type": [
                    "array",
                    "null"
                  ]
                },
                "name": {
                  "maxLength": 100,
                  "minLength": 1,
                  "type": "string"
                },
                "url": {
                  "anyOf": [
                    {
                      "maxLength": 0
                    },
                    {
                      "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://"
                    }
                  ],
                  "maxLength": 2048,
                  "type": [
                    "string",
                    "null"
                  ]
                }
              },
              "required": [
                "name"
              ],
              "title": "ProposalMetadata",
              "type": "object"
            }
          }
        ],
        "result": {
          "name": "Session",
          "schema": {
            "properties": {
              "expiry": {
                "description": "Seconds since the Unix epoch",
                "type": "integer"
              },
              "namespaces": {
                "additionalProperties": false,
                "minProperties": 1,
                "patternProperties": {
                  "^[-a-z0-9]{3,8}$": {
                    "properties": {
                      "accounts": {
                        "items": {
                          "description": "A CAIP-10 account id, chain:address; a Solana address is the base58 public key",
                          "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:[-.%a-zA-Z0-9]{1,128}$",
                          "type": "string"
                        },
                        "type": "array"
                      },
                      "chains": {
                        "items": {
                          "description": "A CAIP-2 chain id, namespace:reference (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)",
                          "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$",
                          "type": "string"
                        },
                        "maxItems": 64,
                        "minItems": 1,
                        "type": "array"
                      },
                      "events": {
                        "items": {
                          "description": "At most 256 bytes of UTF-8",
                          "maxLength": 256,
                          "minLength": 1,
                          "type": "string"
                        },
                        "maxItems": 64,
                        "type": "array"
                      },
                      "methods": {
                        "items": {
                          "description": "At most 256 bytes of UTF-8",
                          "maxLength": 256,
                          "minLength": 1,
                          "type": "string"
                        },
                        "maxItems": 64,
                        "type": "array"
                      }
                    },
                    "required": [
                      "chains",
                      "methods",
                      "events",
                      "accounts"
                    ],
                    "title": "SessionNamespace",
                    "type": "object"
                  }
                },
                "title": "SessionNamespaces",
                "type": "object"
              },
              "optionalNamespaces": {
                "additionalProperties": false,
                "patternProperties": {
                  "^[-a-z0-9]{3,8}$": {
                    "properties": {
                      "chains": {
                        "items": {
                          "description": "A CAIP-2 chain id, namespace:reference (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)",
                          "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$",
                          "type": "string"
                        },
                        "maxItems": 64,
                        "minItems": 1,
                        "type": "array"
                      },
                      "events": {
                        "items": {
                          "description": "At most 256 bytes of UTF-8",
                          "maxLength": 256,
                          "minLength": 1,
                          "type": "string"
                        },
                        "maxItems": 64,
                        "type": "array"
                      },
                      "methods": {
                        "items": {
                          "description": "At most 256 bytes of UTF-8",
                          "maxLength": 256,
                          "minLength": 1,
                          "type": "string"
                        },
                        "maxItems": 64,
                        "type": "array"
                      }
                    },
                    "required": [
                      "chains",
                      "methods",
                      "events"
                    ],
                    "title": "Namespace",
                    "type": "object"
                  }
                },
                "title": "Namespaces",
                "type": "object"
              },
              "origin": {
                "description": "The site the session is for; absent for the extension's own session",
                "maxLength": 255,
                "pattern": "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$",
                "type": "string"
              },
              "peer": {
                "description": "The wallet",
                "properties": {
                  "metadata": {
                    "properties": {
                      "description": {
                        "maxLength": 500,
                        "type": "string"
                      },
                      "icons": {
                        "items": {
                          "maxLength": 2048,
                          "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://",
                          "type": "string"
                        },
                        "maxItems": 8,
                        "type": "array"
                      },
                      "name": {
                        "maxLength": 100,
                        "minLength": 1,
                        "type": "string"
                      },
                      "url": {
                        "anyOf": [
                          {
                            "maxLength": 0
                          },
                          {
                            "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://"
                          }
                        ],
                        "maxLength": 2048,
                        "type": "string"
                      }
                    },
                    "required": [
                      "name",
                      "description",
                      "url",
                      "icons"
                    ],
                    "title": "PeerMetadata",
                    "type": "object"
                  }
                },
                "required": [
                  "metadata"
                ],
                "type": "object"
              },
              "requiredNamespaces": {
                "additionalProperties": false,
                "patternProperties": {
                  "^[-a-z0-9]{3,8}$": {
                    "properties": {
                      "chains": {
                        "items": {
                          "description": "A CAIP-2 chain id, namespace:reference (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)",
                          "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$",
                          "type": "string"
                        },
                        "maxItems": 64,
                        "minItems": 1,
                        "type": "array"
                      },
                      "events": {
                        "items": {
                          "description": "At most 256 bytes of UTF-8",
                          "maxLength": 256,
                          "minLength": 1,
                          "type": "string"
                        },
                        "maxItems": 64,
                        "type": "array"
                      },
                      "methods": {
                        "items": {
                          "description": "At most 256 bytes of UTF-8",
                          "maxLength": 256,
                          "minLength": 1,
                          "type": "string"
                        },
                        "maxItems": 64,
                        "type": "array"
                      }
                    },
                    "required": [
                      "chains",
                      "methods",
                      "events"
                    ],
                    "title": "Namespace",
                    "type": "object"
                  }
                },
                "title": "Namespaces",
                "type": "object"
              },
              "self": {
                "description": "The caller: the extension's metadata, as proposed",
                "properties": {
                  "metadata": {
                    "properties": {
                      "description": {
                        "maxLength": 500,
                        "type": "string"
                      },
                      "icons": {
                        "items": {
                          "maxLength": 2048,
                          "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://",
                          "type": "string"
                        },
                        "maxItems": 8,
                        "type": "array"
                      },
                      "name": {
                        "maxLength": 100,
                        "minLength": 1,
                        "type": "string"
                      },
                      "url": {
                        "anyOf": [
                          {
                            "maxLength": 0
                          },
                          {
                            "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://"
                          }
                        ],
                        "maxLength": 2048,
                        "type": "string"
                      }
                    },
                    "required": [
                      "name",
                      "description",
                      "url",
                      "icons"
                    ],
                    "title": "PeerMetadata",
                    "type": "object"
                  }
                },
                "required": [
                  "metadata"
                ],
                "type": "object"
              },
              "topic": {
                "description": "A session's topic: 64 lowercase hex digits, as session_connect answered it",
                "pattern": "^[0-9a-f]{64}$",
                "type": "string"
              }
            },
            "required": [
              "topic",
              "namespaces",
              "requiredNamespaces",
              "optionalNamespaces",
              "expiry",
              "self",
              "peer"
            ],
            "title": "Session",
            "type": "object"
          }
        },
        "summary": "Proposes a session: checks the namespaces asked for, asks the person, and answers the session with the wallet's accounts on every approved chain.",
        "x-params-schema": {
          "properties": {
            "metadata": {
              "properties": {
                "description": {
                  "maxLength": 500,
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "icons": {
                  "items": {
                    "maxLength": 2048,
                    "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://",
                    "type": "string"
                  },
                  "maxItems": 8,
                  "type": [
                    "array",
                    "null"
                  ]
                },
                "name": {
                  "maxLength": 100,
                  "minLength": 1,
                  "type": "string"
                },
                "url": {
                  "anyOf": [
                    {
                      "maxLength": 0
                    },
                    {
                      "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://"
                    }
                  ],
                  "maxLength": 2048,
                  "type": [
                    "string",
                    "null"
                  ]
                }
              },
              "required": [
                "name"
              ],
              "title": "ProposalMetadata",
              "type": "object"
            },
            "optionalNamespaces": {
              "anyOf": [
                {
                  "additionalProperties": false,
                  "maxProperties": 16,
                  "patternProperties": {
                    "^[-a-z0-9]{3,8}$": {
                      "properties": {
                        "chains": {
                          "items": {
                            "description": "A CAIP-2 chain id, namespace:reference (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)",
                            "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$",
                            "type": "string"
                          },
                          "maxItems": 64,
                          "minItems": 1,
                          "type": "array"
                        },
                        "events": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        },
                        "methods": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        }
                      },
                      "required": [
                        "chains",
                        "methods",
                        "events"
                      ],
                      "title": "Namespace",
                      "type": "object"
                    },
                    "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$": {
                      "properties": {
                        "chains": false,
                        "events": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        },
                        "methods": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        }
                      },
                      "required": [
                        "methods",
                        "events"
                      ],
                      "title": "ChainNamespace",
                      "type": "object"
                    }
                  },
                  "title": "ProposalNamespaces",
                  "type": [
                    "object",
                    "null"
                  ]
                },
                {
                  "type": "null"
                }
              ]
            },
            "origin": {
              "anyOf": [
                {
                  "description": "The site the call is for, as the browser reported it to the extension (never what the page says): only that site's sessions are seen and used. Left out: the extension's own sessions, without a site",
                  "maxLength": 255,
                  "pattern": "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$",
                  "type": "string"
                },
                {
                  "type": "null"
                }
              ]
            },
            "requiredNamespaces": {
              "anyOf": [
                {
                  "additionalProperties": false,
                  "maxProperties": 16,
                  "patternProperties": {
                    "^[-a-z0-9]{3,8}$": {
                      "properties": {
                        "chains": {
                          "items": {
                            "description": "A CAIP-2 chain id, namespace:reference (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)",
                            "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$",
                            "type": "string"
                          },
                          "maxItems": 64,
                          "minItems": 1,
                          "type": "array"
                        },
                        "events": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        },
                        "methods": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        }
                      },
                      "required": [
                        "chains",
                        "methods",
                        "events"
                      ],
                      "title": "Namespace",
                      "type": "object"
                    },
                    "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$": {
                      "properties": {
                        "chains": false,
                        "events": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        },
                        "methods": {
                          "items": {
                            "description": "At most 256 bytes of UTF-8",
                            "maxLength": 256,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 64,
                          "type": "array"
                        }
                      },
                      "required": [
                        "methods",
                        "events"
                      ],
                      "title": "ChainNamespace",
                      "type": "object"
                    }
                  },
                  "title": "ProposalNamespaces",
                  "type": [
                    "object",
                    "null"
                  ]
                },
                {
                  "type": "null"
                }
              ]
            }
          },
          "required": [
            "metadata"
          ],
          "title": "SessionConnectParams",
          "type": "object"
        }
      },
      {
        "errors": [
          {
            "code": 7001,
            "message": "No session for topic"
          },
          {
            "code": -1,
            "message": "Authorization failed"
          }
        ],
        "name": "session_disconnect",
        "paramStructure": "by-name",
        "params": [
          {
            "name": "origin",
            "required": false,
            "schema": {
              "anyOf": [
                {
                  "description": "The site the call is for, as the browser reported it to the extension (never what the page says): only that site's sessions are seen and used. Left out: the extension's own sessions, without a site",
                  "maxLength": 255,
                  "pattern": "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$",
                  "type": "string"
                },
                {
                  "type": "null"
                }
              ]
            }
          },
          {
            "name": "topic",
            "required": true,
            "schema": {
              "description": "A session's topic: 64 lowercase hex digits, as session_connect answered it",
              "pattern": "^[0-9a-f]{64}$",
              "type": "string"
            }
          },
          {
            "name": "reason",
            "required": false,
            "schema": {
              "anyOf": [
                {
                  "description": "What the extension's ports hear in session_delete; 6000 User disconnected unless given",
                  "properties": {
                    "code": {
                      "type": "integer"
                    },
                    "message": {
                      "description": "At most 256 bytes of UTF-8",
                      "maxLength": 256,
                      "type": "string"
                    }
                  },
                  "required": [
                    "code",
                    "message"
                  ],
                  "title": "SessionReason",
                  "type": "object"
                },
                {
                  "type": "null"
                }
              ]
            }
          }
        ],
        "result": {
          "name": "SessionDisconnectResult",
          "schema": {
            "maxProperties": 0,
            "title": "SessionDisconnectResult",
            "type": "object"
          }
        },
        "summary": "Ends a session; the extension's ports hear session_delete with the reason.",
        "x-params-schema": {
          "properties": {
            "origin": {
              "anyOf": [
                {
                  "description": "The site the call is for, as the browser reported it to the extension (never what the page says): only that site's sessions are seen and used. Left out: the extension's own sessions, without a site",
                  "maxLength": 255,
                  "pattern": "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$",
                  "type": "string"
                },
                {
                  "type": "null"
                }
              ]
            },
            "reason": {
              "anyOf": [
                {
                  "description": "What the extension's ports hear in session_delete; 6000 User disconnected unless given",
                  "properties": {
                    "code": {
                      "type": "integer"
                    },
                    "message": {
                      "description": "At most 256 bytes of UTF-8",
                      "maxLength": 256,
                      "type": "string"
                    }
                  },
                  "required": [
                    "code",
                    "message"
                  ],
                  "title": "SessionReason",
                  "type": "object"
                },
                {
                  "type": "null"
                }
              ]
            },
            "topic": {
              "description": "A session's topic: 64 lowercase hex digits, as session_connect answered it",
              "pattern": "^[0-9a-f]{64}$",
              "type": "string"
            }
          },
          "required": [
            "topic"
          ],
          "title": "SessionDisconnectParams",
          "type": "object"
        }
      },
      {
        "errors": [
          {
            "code": 7001,
            "message": "No session for topic"
          },
          {
            "code": -1,
            "message": "Authorization failed"
          }
        ],
        "name": "session_extend",
        "paramStructure": "by-name",
        "params": [
          {
            "name": "origin",
            "required": false,
            "schema": {
              "anyOf": [
                {
                  "description": "The site the call is for, as the browser reported it to the extension (never what the page says): only that site's sessions are seen and used. Left out: the extension's own sessions, without a site",
                  "maxLength": 255,
                  "pattern": "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$",
                  "type": "string"
                },
                {
                  "type": "null"
                }
              ]
            }
          },
          {
            "name": "topic",
            "required": true,
            "schema": {
              "description": "A session's topic: 64 lowercase hex digits, as session_connect answered it",
              "pattern": "^[0-9a-f]{64}$",
              "type": "string"
            }
          }
        ],
        "result": {
          "name": "SessionExtendResult",
          "schema": {
            "properties": {
              "expiry": {
                "description": "Seconds since the Unix epoch",
                "type": "integer"
              }
            },
            "required": [
              "expiry"
            ],
            "title": "SessionExtendResult",
            "type": "object"
          }
        },
        "summary": "Makes a session last the session lifetime (7 days unless configured) from now; answers its new expiry.",
        "x-params-schema": {
          "properties": {
            "origin": {
              "anyOf": [
                {
                  "description": "The site the call is for, as the browser reported it to the extension (never what the page says): only that site's sessions are seen and used. Left out: the extension's own sessions, without a site",
                  "maxLength": 255,
                  "pattern": "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$",
                  "type": "string"
                },
                {
                  "type": "null"
                }
              ]
            },
            "topic": {
              "description": "A session's topic: 64 lowercase hex digits, as session_connect answered it",
              "pattern": "^[0-9a-f]{64}$",
              "type": "string"
            }
          },
          "required": [
            "topic"
          ],
          "title": "SessionExtendParams",
          "type": "object"
        }
      },
      {
        "errors": [
          {
            "code": -1,
            "message": "Authorization failed"
          }
        ],
        "name": "session_list",
        "paramStructure": "by-name",
        "params": [
          {
            "name": "origin",
            "required": false,
            "schema": {
              "anyOf": [
                {
                  "description": "The site the call is for, as the browser reported it to the extension (never what the page says): only that site's sessions are seen and used. Left out: the extension's own sessions, without a site",
                  "maxLength": 255,
                  "pattern": "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$",
                  "type": "string"
                },
                {
                  "type": "null"
                }
              ]
            }
          }
        ],
        "result": {
          "name": "SessionListResult",
          "schema": {
            "properties": {
              "sessions": {
                "items": {
                  "properties": {
                    "expiry": {
                      "description": "Seconds since the Unix epoch",
                      "type": "integer"
                    },
                    "namespaces": {
                      "additionalProperties": false,
                      "minProperties": 1,
                      "patternProperties": {
                        "^[-a-z0-9]{3,8}$": {
                          "properties": {
                            "accounts": {
                              "items": {
                                "description": "A CAIP-10 account id, chain:address; a Solana address is the base58 public key",
                                "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:[-.%a-zA-Z0-9]{1,128}$",
                                "type": "string"
                              },
                              "type": "array"
                            },
                            "chains": {
                              "items": {
                                "description": "A CAIP-2 chain id, namespace:reference (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)",
                                "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$",
                                "type": "string"
                              },
                              "maxItems": 64,
                              "minItems": 1,
                              "type": "array"
                            },
                            "events": {
                              "items": {
                                "description": "At most 256 bytes of UTF-8",
                                "maxLength": 256,
                                "minLength": 1,
                                "type": "string"
                              },
                              "maxItems": 64,
                              "type": "array"
                            },
                            "methods": {
                              "items": {
                                "description": "At most 256 bytes of UTF-8",
                                "maxLength": 256,
                                "minLength": 1,
                                "type": "string"
                              },
                              "maxItems": 64,
                              "type": "array"
                            }
                          },
                          "required": [
                            "chains",
                            "methods",
                            "events",
                            "accounts"
                          ],
                          "title": "SessionNamespace",
                          "type": "object"
                        }
                      },
                      "title": "SessionNamespaces",
                      "type": "object"
                    },
                    "optionalNamespaces": {
                      "additionalProperties": false,
                      "patternProperties": {
                        "^[-a-z0-9]{3,8}$": {
                          "properties": {
                            "chains": {
                              "items": {
                                "description": "A CAIP-2 chain id, namespace:reference (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)",
                                "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$",
                                "type": "string"
                              },
                              "maxItems": 64,
                              "minItems": 1,
                              "type": "array"
                            },
                            "events": {
                              "items": {
                                "description": "At most 256 bytes of UTF-8",
                                "maxLength": 256,
                                "minLength": 1,
                                "type": "string"
                              },
                              "maxItems": 64,
                              "type": "array"
                            },
                            "methods": {
                              "items": {
                                "description": "At most 256 bytes of UTF-8",
                                "maxLength": 256,
                                "minLength": 1,
                                "type": "string"
                              },
                              "maxItems": 64,
                              "type": "array"
                            }
                          },
                          "required": [
                            "chains",
                            "methods",
                            "events"
                          ],
                          "title": "Namespace",
                          "type": "object"
                        }
                      },
                      "title": "Namespaces",
                      "type": "object"
                    },
                    "origin": {
                      "description": "The site the session is for; absent for the extension's own session",
                      "maxLength": 255,
                      "pattern": "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$",
                      "type": "string"
                    },
                    "peer": {
                      "description": "The wallet",
                      "properties": {
                        "metadata": {
                          "properties": {
                            "description": {
                              "maxLength": 500,
                              "type": "string"
                            },
                            "icons": {
                              "items": {
                                "maxLength": 2048,
                                "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://",
                                "type": "string"
                              },
                              "maxItems": 8,
                              "type": "array"
                            },
                            "name": {
                              "maxLength": 100,
                              "minLength": 1,
                              "type": "string"
                            },
                            "url": {
                              "anyOf": [
                                {
                                  "maxLength": 0
                                },
                                {
                                  "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://"
                                }
                              ],
                              "maxLength": 2048,
                              "type": "string"
                            }
                          },
                          "required": [
                            "name",
                            "description",
                            "url",
                            "icons"
                          ],
                          "title": "PeerMetadata",
                          "type": "object"
                        }
                      },
                      "required": [
                        "metadata"
                      ],
                      "type": "object"
                    },
                    "requiredNamespaces": {
                      "additionalProperties": false,
                      "patternProperties": {
                        "^[-a-z0-9]{3,8}$": {
                          "properties": {
                            "chains": {
                              "items": {
                                "description": "A CAIP-2 chain id, namespace:reference (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)",
                                "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$",
                                "type": "string"
                              },
                              "maxItems": 64,
                              "minItems": 1,
                              "type": "array"
                            },
                            "events": {
                              "items": {
                                "description": "At most 256 bytes of UTF-8",
                                "maxLength": 256,
                                "minLength": 1,
                                "type": "string"
                              },
                              "maxItems": 64,
                              "type": "array"
                            },
                            "methods": {
                              "items": {
                                "description": "At most 256 bytes of UTF-8",
                                "maxLength": 256,
                                "minLength": 1,
                                "type": "string"
                              },
                              "maxItems": 64,
                              "type": "array"
                            }
                          },
                          "required": [
                            "chains",
                            "methods",
                            "events"
                          ],
                          "title": "Namespace",
                          "type": "object"
                        }
                      },
                      "title": "Namespaces",
                      "type": "object"
                    },
                    "self": {
                      "description": "The caller: the extension's metadata, as proposed",
                      "properties": {
                        "metadata": {
                          "properties": {
                            "description": {
                              "maxLength": 500,
                              "type": "string"
                            },
                            "icons": {
                              "items": {
                                "maxLength": 2048,
                                "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://",
                                "type": "string"
                              },
                              "maxItems": 8,
                              "type": "array"
                            },
                            "name": {
                              "maxLength": 100,
                              "minLength": 1,
                              "type": "string"
                            },
                            "url": {
                              "anyOf": [
                                {
                                  "maxLength": 0
                                },
                                {
                                  "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://"
                                }
                              ],
                              "maxLength": 2048,
                              "type": "string"
                            }
                          },
                          "required": [
                            "name",
                            "description",
                            "url",
                            "icons"
                          ],
                          "title": "PeerMetadata",
                          "type": "object"
                        }
                      },
                      "required": [
                        "metadata"
                      ],
                      "type": "object"
                    },
                    "topic": {
                      "description": "A session's topic: 64 lowercase hex digits, as session_connect answered it",
                      "pattern": "^[0-9a-f]{64}$",
                      "type": "string"
                    }
                  },
                  "required": [
                    "topic",
                    "namespaces",
                    "requiredNamespaces",
                    "optionalNamespaces",
                    "expiry",
                    "self",
                    "peer"
                  ],
                  "title": "Session",
                  "type": "object"
                },
                "type": "array"
              }
            },
            "required": [
              "sessions"
            ],
            "title": "SessionListResult",
            "type": "object"
          }
        },
        "summary": "The caller's live sessions for the site origin names (its own without), oldest first.",
        "x-params-schema": {
          "properties": {
            "origin": {
              "anyOf": [
                {
                  "description": "The site the call is for, as the browser reported it to the extension (never what the page says): only that site's sessions are seen and used. Left out: the extension's own sessions, without a site",
                  "maxLength": 255,
                  "pattern": "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$",
                  "type": "string"
                },
                {
                  "type": "null"
                }
              ]
            }
          },
          "title": "SessionListParams",
          "type": "object"
        }
      },
      {
        "errors": [
          {
            "code": 7001,
            "message": "No session for topic"
          },
          {
            "code": 3005,
            "message": "Unauthorized chain"
          },
          {
            "code": 3001,
            "message": "Unauthorized method"
          },
          {
            "code": 4100,
            "message": "Unauthorized"
          },
          {
            "code": 4001,
            "message": "User rejected the request"
          },
          {
            "code": -3,
            "message": "Payload not signed"
          },
          {
            "code": 8000,
            "message": "Session request expired"
          },
          {
            "code": -1,
            "message": "Authorization failed"
          }
        ],
        "name": "session_request",
        "paramStructure": "by-name",
        "params": [
          {
            "name": "origin",
            "required": false,
            "schema": {
              "anyOf": [
                {
                  "description": "The site the call is for, as the browser reported it to the extension (never what the page says): only that site's sessions are seen and used. Left out: the extension's own sessions, without a site",
                  "maxLength": 255,
                  "pattern": "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$",
                  "type": "string"
                },
                {
                  "type": "null"
                }
              ]
            }
          },
          {
            "name": "topic",
            "required": true,
            "schema": {
              "description": "A session's topic: 64 lowercase hex digits, as session_connect answered it",
              "pattern": "^[0-9a-f]{64}$",
              "type": "string"
            }
          },
          {
            "name": "chainId",
            "required": true,
            "schema": {
              "description": "A CAIP-2 chain id, namespace:reference (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)",
              "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$",
              "type": "string"
            }
          },
          {
            "name": "request",
            "required": true,
            "schema": {
              "anyOf": [
                {
                  "properties": {
                    "method": {
                      "not": {
                        "enum": [
                          "solana_signMessage",
                          "solana_signTransaction",
                          "solana_signAllTransactions",
                          "solana_signIn",
                          "personal_sign",
                          "eth_signTypedData_v4",
                          "eth_signTransaction"
                        ]
                      }
                    }
                  }
                },
                {
                  "properties": {
                    "method": {
                      "const": "solana_signMessage"
                    },
                    "params": {
                      "properties": {
                        "message": {
                          "description": "The bytes to sign, in base58",
                          "pattern": "^[1-9A-HJ-NP-Za-km-z]+$",
                          "type": "string"
                        },
                        "pubkey": {
                          "description": "The account to sign with: one of the session's keys, in base58",
                          "pattern": "^[1-9A-HJ-NP-Za-km-z]{32,44}$",
                          "type": "string"
                        }
                      },
                      "required": [
                        "message",
                        "pubkey"
                      ],
                      "title": "SignMessageParams",
                      "type": "object"
                    }
                  },
                  "required": [
                    "params"
                  ]
                },
                {
                  "properties": {
                    "method": {
                      "const": "solana_signTransaction"
                    },
                    "params": {
                      "properties": {
                        "pubkey": {
                          "anyOf": [
                            {
                              "pattern": "^[1-9A-HJ-NP-Za-km-z]{32,44}$",
                              "type": "string"
                            },
                            {
                              "type": "null"
                            }
                          ],
                          "description": "The key to sign with: one of the session's keys and a required signer; the first such signer when left out or null"
                        },
                        "transaction": {
                          "description": "A serialized transaction (signatures, then the message), legacy or version 0, in standard base64: at most 1232 bytes",
                          "maxLength": 1644,
                          "pattern": "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$",
                          "type": "string"
                        }
                      },
                      "required": [
                        "transaction"
                      ],
                      "title": "SignTransactionParams",
                      "type": "object"
                    }
                  },
                  "required": [
                    "params"
                  ]
                },
                {
                  "properties": {
                    "method": {
                      "const": "solana_signAllTransactions"
                    },
                    "params": {
                      "properties": {
                        "pubkey": {
                          "anyOf": [
                            {
                              "pattern": "^[1-9A-HJ-NP-Za-km-z]{32,44}$",
                              "type": "string"
                            },
                            {
                              "type": "null"
                            }
                          ],
                          "description": "The key to sign with: one of the session's keys and a required signer of every transaction; the first such signer of the first transaction when left out or null"
                        },
                        "transactions": {
                          "items": {
                            "description": "A serialized transaction (signatures, then the message), legacy or version 0, in standard base64: at most 1232 bytes",
                            "maxLength": 1644,
                            "pattern": "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$",
                            "type": "string"
                          },
                          "maxItems": 16,
                          "minItems": 1,
                          "type": "array"
                        }
                      },
                      "required": [
                        "transactions"
                      ],
                      "title": "SignAllTransactionsParams",
                      "type": "object"
                    }
                  },
                  "required": [
                    "params"
                  ]
                },
                {
                  "properties": {
                    "method": {
                      "const": "solana_signIn"
                    },
                    "params": {
                      "description": "What to sign in with (Sign In With Solana); the wallet builds the message in the published format",
                      "properties": {
                        "address": {
                          "anyOf": [
                            {
                              "pattern": "^[1-9A-HJ-NP-Za-km-z]{32,44}$",
                              "type": "string"
                            },
                            {
                              "type": "null"
                            }
                          ],
                          "description": "One of the session's keys; the first when left out"
                        },
                        "chainId": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "domain": {
                          "description": "The site's host[:port]; the session's site when left out",
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "expirationTime": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "issuedAt": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "nonce": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "notBefore": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "requestId": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "resources": {
                          "items": {
                            "maxLength": 1024,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 32,
                          "type": [
                            "array",
                            "null"
                          ]
                        },
                        "statement": {
                          "maxLength": 4096,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "uri": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "version": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        }
                      },
                      "title": "SolanaSignInInput",
                      "type": "object"
                    }
                  },
                  "required": [
                    "params"
                  ]
                },
                {
                  "properties": {
                    "method": {
                      "const": "personal_sign"
                    },
                    "params": {
                      "items": [
                        {
                          "description": "The message: 0x and its bytes in hex, or UTF-8 text",
                          "type": "string"
                        },
                        {
                          "description": "An Ethereum address (EIP-55 or one letter case)",
                          "pattern": "^0x[0-9a-fA-F]{40}$",
                          "type": "string"
                        }
                      ],
                      "maxItems": 2,
                      "minItems": 2,
                      "title": "PersonalSignParams",
                      "type": "array"
                    }
                  },
                  "required": [
                    "params"
                  ]
                },
                {
                  "properties": {
                    "method": {
                      "const": "eth_signTypedData_v4"
                    },
                    "params": {
                      "items": [
                        {
                          "description": "An Ethereum address (EIP-55 or one letter case)",
                          "pattern": "^0x[0-9a-fA-F]{40}$",
                          "type": "string"
                        },
                        {
                          "description": "EIP-712 typed data, or a JSON string of it",
                          "type": [
                            "object",
                            "string"
                          ]
                        }
                      ],
                      "maxItems": 2,
                      "minItems": 2,
                      "title": "SignTypedDataV4Params",
                      "type": "array"
                    }
                  },
                  "required": [
                    "params"
                  ]
                },
                {
                  "properties": {
                    "method": {
                      "const": "eth_signTransaction"
                    },
                    "params": {
                      "items": [
                        {
                          "anyOf": [
                            {
                              "additionalProperties": false,
                              "allOf": [
                                {
                                  "anyOf": [
                                    {
                                      "required": [
                                        "gas"
                                      ]
                                    },
                                    {
                                      "required": [
                                        "gasLimit"
                                      ]
                                    }
                                  ]
                                },
                                {
                                  "anyOf": [
                                    {
                                      "required": [
                                        "gasPrice"
                                      ]
                                    },
                                    {
                                      "required": [
                                        "maxFeePerGas",
                                        "maxPriorityFeePerGas"
                                      ]
                                    }
                                  ]
                                }
                              ],
                              "properties": {
                                "accessList": {
                                  "type": "array"
                                },
                                "chainId": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "data": {
                                  "pattern": "^0x([0-9a-fA-F]{2})*$",
                                  "type": "string"
                                },
                                "from": {
                                  "description": "The account that signs: one of the session's",
                                  "pattern": "^0x[0-9a-fA-F]{40}$",
                                  "type": "string"
                                },
                                "gas": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "gasLimit": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "gasPrice": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "input": {
                                  "pattern": "^0x([0-9a-fA-F]{2})*$",
                                  "type": "string"
                                },
                                "maxFeePerGas": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "maxPriorityFeePerGas": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "nonce": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "to": {
                                  "anyOf": [
                                    {
                                      "description": "An Ethereum address (EIP-55 or one letter case)",
                                      "pattern": "^0x[0-9a-fA-F]{40}$",
                                      "type": "string"
                                    },
                                    {
                                      "type": "null"
                                    }
                                  ],
                                  "description": "Absent or null: a contract creation"
                                },
                                "type": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "value": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                }
                              },
                              "required": [
                                "from",
                                "nonce"
                              ],
                              "title": "EthereumTransactionRequest",
                              "type": "object"
                            },
                            {
                              "description": "An unsigned serialized transaction (EIP-2718 typed, or legacy RLP) in hex",
                              "pattern": "^0x([0-9a-fA-F]{2})*$",
                              "type": "string"
                            }
                          ]
                        },
                        {
                          "description": "The account that signs: one of the session's. For the serialized form, which names no sender; the first of eth_accounts when left out. With an object, it must be its from",
                          "pattern": "^0x[0-9a-fA-F]{40}$",
                          "type": "string"
                        }
                      ],
                      "maxItems": 2,
                      "minItems": 1,
                      "title": "SignEthereumTransactionParams",
                      "type": "array"
                    }
                  },
                  "required": [
                    "params"
                  ]
                }
              ],
              "properties": {
                "method": {
                  "type": "string"
                },
                "params": {}
              },
              "required": [
                "method"
              ],
              "title": "SessionInnerRequest",
              "type": "object"
            }
          },
          {
            "name": "expiry",
            "required": false,
            "schema": {
              "anyOf": [
                {
                  "description": "When to give up waiting for the person, in seconds since the Unix epoch: 5 minutes to 7 days from now",
                  "type": "integer"
                },
                {
                  "type": "null"
                }
              ]
            }
          }
        ],
        "result": {
          "name": "SessionRequestResult",
          "schema": {
            "anyOf": [
              {
                "properties": {
                  "signature": {
                    "description": "The 64-byte Ed25519 signature, in base58",
                    "pattern": "^[1-9A-HJ-NP-Za-km-z]{64,88}$",
                    "type": "string"
                  }
                },
                "required": [
                  "signature"
                ],
                "title": "SignMessageResult",
                "type": "object"
              },
              {
                "properties": {
                  "signature": {
                    "description": "This key's 64-byte Ed25519 signature, in base58",
                    "pattern": "^[1-9A-HJ-NP-Za-km-z]{64,88}$",
                    "type": "string"
                  },
                  "transaction": {
                    "description": "The whole transaction with that signature in its slot, other signatures kept",
                    "maxLength": 1644,
                    "pattern": "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$",
                    "type": "string"
                  }
                },
                "required": [
                  "signature",
                  "transaction"
                ],
                "title": "SignTransactionResult",
                "type": "object"
              },
              {
                "properties": {
                  "signatures": {
                    "items": {
                      "pattern": "^[1-9A-HJ-NP-Za-km-z]{64,88}$",
                      "type": "string"
                    },
                    "type": "array"
                  },
                  "transactions": {
                    "items": {
                      "description": "A serialized transaction (signatures, then the message), legacy or version 0, in standard base64: at most 1232 bytes",
                      "maxLength": 1644,
                      "pattern": "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$",
                      "type": "string"
                    },
                    "type": "array"
                  }
                },
                "required": [
                  "transactions",
                  "signatures"
                ],
                "title": "SignAllTransactionsResult",
                "type": "object"
              },
              {
                "properties": {
                  "address": {
                    "description": "The key that signed",
                    "pattern": "^[1-9A-HJ-NP-Za-km-z]{32,44}$",
                    "type": "string"
                  },
                  "message": {
                    "description": "The exact text signed (its UTF-8 bytes)",
                    "type": "string"
                  },
                  "signature": {
                    "description": "The 64-byte Ed25519 signature, in base58",
                    "pattern": "^[1-9A-HJ-NP-Za-km-z]{64,88}$",
                    "type": "string"
                  }
                },
                "required": [
                  "address",
                  "message",
                  "signature"
                ],
                "title": "SignInResult",
                "type": "object"
              },
              {
                "items": {
                  "properties": {
                    "pubkey": {
                      "pattern": "^[1-9A-HJ-NP-Za-km-z]{32,44}$",
                      "type": "string"
                    }
                  },
                  "required": [
                    "pubkey"
                  ],
                  "type": "object"
                },
                "title": "SessionAccounts",
                "type": "array"
              },
              {
                "description": "personal_sign, eth_signTypedData_v4: 65 bytes r, s, v (27 or 28) in hex",
                "pattern": "^0x[0-9a-f]{130}$",
                "title": "EthereumSignature",
                "type": "string"
              },
              {
                "description": "eth_signTransaction: the raw signed transaction in hex, as eth_sendRawTransaction takes it",
                "pattern": "^0x([0-9a-f]{2})+$",
                "title": "EthereumSignedTransaction",
                "type": "string"
              },
              {
                "description": "eth_chainId: the chain id as a hex quantity",
                "pattern": "^0x[1-9a-f][0-9a-f]*$",
                "title": "EthereumChainId",
                "type": "string"
              },
              {
                "items": {
                  "description": "eth_accounts: EIP-55 checksummed",
                  "pattern": "^0x[0-9a-fA-F]{40}$",
                  "type": "string"
                },
                "title": "EthereumAccounts",
                "type": "array"
              }
            ],
            "title": "SessionRequestResult"
          }
        },
        "summary": "A request within a session (solana_signMessage, solana_signTransaction, solana_signAllTransactions, solana_signIn, solana_getAccounts, solana_requestAccounts; eth_accounts, eth_chainId, personal_sign, eth_signTypedData_v4, eth_signTransaction), checked against the session; answers the inner method's result. The wallet signs transactions and never sends them: eth_sendTransaction is 3001.",
        "x-params-schema": {
          "properties": {
            "chainId": {
              "description": "A CAIP-2 chain id, namespace:reference (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp)",
              "pattern": "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$",
              "type": "string"
            },
            "expiry": {
              "anyOf": [
                {
                  "description": "When to give up waiting for the person, in seconds since the Unix epoch: 5 minutes to 7 days from now",
                  "type": "integer"
                },
                {
                  "type": "null"
                }
              ]
            },
            "origin": {
              "anyOf": [
                {
                  "description": "The site the call is for, as the browser reported it to the extension (never what the page says): only that site's sessions are seen and used. Left out: the extension's own sessions, without a site",
                  "maxLength": 255,
                  "pattern": "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$",
                  "type": "string"
                },
                {
                  "type": "null"
                }
              ]
            },
            "request": {
              "anyOf": [
                {
                  "properties": {
                    "method": {
                      "not": {
                        "enum": [
                          "solana_signMessage",
                          "solana_signTransaction",
                          "solana_signAllTransactions",
                          "solana_signIn",
                          "personal_sign",
                          "eth_signTypedData_v4",
                          "eth_signTransaction"
                        ]
                      }
                    }
                  }
                },
                {
                  "properties": {
                    "method": {
                      "const": "solana_signMessage"
                    },
                    "params": {
                      "properties": {
                        "message": {
                          "description": "The bytes to sign, in base58",
                          "pattern": "^[1-9A-HJ-NP-Za-km-z]+$",
                          "type": "string"
                        },
                        "pubkey": {
                          "description": "The account to sign with: one of the session's keys, in base58",
                          "pattern": "^[1-9A-HJ-NP-Za-km-z]{32,44}$",
                          "type": "string"
                        }
                      },
                      "required": [
                        "message",
                        "pubkey"
                      ],
                      "title": "SignMessageParams",
                      "type": "object"
                    }
                  },
                  "required": [
                    "params"
                  ]
                },
                {
                  "properties": {
                    "method": {
                      "const": "solana_signTransaction"
                    },
                    "params": {
                      "properties": {
                        "pubkey": {
                          "anyOf": [
                            {
                              "pattern": "^[1-9A-HJ-NP-Za-km-z]{32,44}$",
                              "type": "string"
                            },
                            {
                              "type": "null"
                            }
                          ],
                          "description": "The key to sign with: one of the session's keys and a required signer; the first such signer when left out or null"
                        },
                        "transaction": {
                          "description": "A serialized transaction (signatures, then the message), legacy or version 0, in standard base64: at most 1232 bytes",
                          "maxLength": 1644,
                          "pattern": "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$",
                          "type": "string"
                        }
                      },
                      "required": [
                        "transaction"
                      ],
                      "title": "SignTransactionParams",
                      "type": "object"
                    }
                  },
                  "required": [
                    "params"
                  ]
                },
                {
                  "properties": {
                    "method": {
                      "const": "solana_signAllTransactions"
                    },
                    "params": {
                      "properties": {
                        "pubkey": {
                          "anyOf": [
                            {
                              "pattern": "^[1-9A-HJ-NP-Za-km-z]{32,44}$",
                              "type": "string"
                            },
                            {
                              "type": "null"
                            }
                          ],
                          "description": "The key to sign with: one of the session's keys and a required signer of every transaction; the first such signer of the first transaction when left out or null"
                        },
                        "transactions": {
                          "items": {
                            "description": "A serialized transaction (signatures, then the message), legacy or version 0, in standard base64: at most 1232 bytes",
                            "maxLength": 1644,
                            "pattern": "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$",
                            "type": "string"
                          },
                          "maxItems": 16,
                          "minItems": 1,
                          "type": "array"
                        }
                      },
                      "required": [
                        "transactions"
                      ],
                      "title": "SignAllTransactionsParams",
                      "type": "object"
                    }
                  },
                  "required": [
                    "params"
                  ]
                },
                {
                  "properties": {
                    "method": {
                      "const": "solana_signIn"
                    },
                    "params": {
                      "description": "What to sign in with (Sign In With Solana); the wallet builds the message in the published format",
                      "properties": {
                        "address": {
                          "anyOf": [
                            {
                              "pattern": "^[1-9A-HJ-NP-Za-km-z]{32,44}$",
                              "type": "string"
                            },
                            {
                              "type": "null"
                            }
                          ],
                          "description": "One of the session's keys; the first when left out"
                        },
                        "chainId": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "domain": {
                          "description": "The site's host[:port]; the session's site when left out",
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "expirationTime": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "issuedAt": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "nonce": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "notBefore": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "requestId": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "resources": {
                          "items": {
                            "maxLength": 1024,
                            "minLength": 1,
                            "type": "string"
                          },
                          "maxItems": 32,
                          "type": [
                            "array",
                            "null"
                          ]
                        },
                        "statement": {
                          "maxLength": 4096,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "uri": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        },
                        "version": {
                          "maxLength": 1024,
                          "type": [
                            "string",
                            "null"
                          ]
                        }
                      },
                      "title": "SolanaSignInInput",
                      "type": "object"
                    }
                  },
                  "required": [
                    "params"
                  ]
                },
                {
                  "properties": {
                    "method": {
                      "const": "personal_sign"
                    },
                    "params": {
                      "items": [
                        {
                          "description": "The message: 0x and its bytes in hex, or UTF-8 text",
                          "type": "string"
                        },
                        {
                          "description": "An Ethereum address (EIP-55 or one letter case)",
                          "pattern": "^0x[0-9a-fA-F]{40}$",
                          "type": "string"
                        }
                      ],
                      "maxItems": 2,
                      "minItems": 2,
                      "title": "PersonalSignParams",
                      "type": "array"
                    }
                  },
                  "required": [
                    "params"
                  ]
                },
                {
                  "properties": {
                    "method": {
                      "const": "eth_signTypedData_v4"
                    },
                    "params": {
                      "items": [
                        {
                          "description": "An Ethereum address (EIP-55 or one letter case)",
                          "pattern": "^0x[0-9a-fA-F]{40}$",
                          "type": "string"
                        },
                        {
                          "description": "EIP-712 typed data, or a JSON string of it",
                          "type": [
                            "object",
                            "string"
                          ]
                        }
                      ],
                      "maxItems": 2,
                      "minItems": 2,
                      "title": "SignTypedDataV4Params",
                      "type": "array"
                    }
                  },
                  "required": [
                    "params"
                  ]
                },
                {
                  "properties": {
                    "method": {
                      "const": "eth_signTransaction"
                    },
                    "params": {
                      "items": [
                        {
                          "anyOf": [
                            {
                              "additionalProperties": false,
                              "allOf": [
                                {
                                  "anyOf": [
                                    {
                                      "required": [
                                        "gas"
                                      ]
                                    },
                                    {
                                      "required": [
                                        "gasLimit"
                                      ]
                                    }
                                  ]
                                },
                                {
                                  "anyOf": [
                                    {
                                      "required": [
                                        "gasPrice"
                                      ]
                                    },
                                    {
                                      "required": [
                                        "maxFeePerGas",
                                        "maxPriorityFeePerGas"
                                      ]
                                    }
                                  ]
                                }
                              ],
                              "properties": {
                                "accessList": {
                                  "type": "array"
                                },
                                "chainId": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "data": {
                                  "pattern": "^0x([0-9a-fA-F]{2})*$",
                                  "type": "string"
                                },
                                "from": {
                                  "description": "The account that signs: one of the session's",
                                  "pattern": "^0x[0-9a-fA-F]{40}$",
                                  "type": "string"
                                },
                                "gas": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "gasLimit": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "gasPrice": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "input": {
                                  "pattern": "^0x([0-9a-fA-F]{2})*$",
                                  "type": "string"
                                },
                                "maxFeePerGas": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "maxPriorityFeePerGas": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "nonce": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "to": {
                                  "anyOf": [
                                    {
                                      "description": "An Ethereum address (EIP-55 or one letter case)",
                                      "pattern": "^0x[0-9a-fA-F]{40}$",
                                      "type": "string"
                                    },
                                    {
                                      "type": "null"
                                    }
                                  ],
                                  "description": "Absent or null: a contract creation"
                                },
                                "type": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                },
                                "value": {
                                  "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
                                  "type": "string"
                                }
                              },
                              "required": [
                                "from",
                                "nonce"
                              ],
                              "title": "EthereumTransactionRequest",
                              "type": "object"
                            },
                            {
                              "description": "An unsigned serialized transaction (EIP-2718 typed, or legacy RLP) in hex",
                              "pattern": "^0x([0-9a-fA-F]{2})*$",
                              "type": "string"
                            }
                          ]
                        },
                        {
                          "description": "The account that signs: one of the session's. For the serialized form, which names no sender; the first of eth_accounts when left out. With an object, it must be its from",
                          "pattern": "^0x[0-9a-fA-F]{40}$",
                          "type": "string"
                        }
                      ],
                      "maxItems": 2,
                      "minItems": 1,
                      "title": "SignEthereumTransactionParams",
                      "type": "array"
                    }
                  },
                  "required": [
                    "params"
                  ]
                }
              ],
              "properties": {
                "method": {
                  "type": "string"
                },
                "params": {}
              },
              "required": [
                "method"
              ],
              "title": "SessionInnerRequest",
              "type": "object"
            },
            "topic": {
              "description": "A session's topic: 64 lowercase hex digits, as session_connect answered it",
              "pattern": "^[0-9a-f]{64}$",
              "type": "string"
            }
          },
          "required": [
            "topic",
            "chainId",
            "request"
          ],
          "title": "SessionRequestParams",
          "type": "object"
        }
      }
    ]
    """#
