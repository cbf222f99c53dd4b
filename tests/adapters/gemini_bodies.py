"""Real Gemini API bodies for the adapter tests.

Success bodies and the first two errors are copied from the conformance cassettes (recorded by
crewAI and pydantic-ai against generativelanguage.googleapis.com, v1beta; file and interaction
named above each). `PARALLEL_CALLS` is the single event of a recorded `alt=sse` stream: each event
is a whole GenerateContentResponse, the same shape generateContent answers with.

The other error bodies are the API's own words as users reported them (quoted verbatim; Gemini
sends no request-id header and no retry-after header with any of them).
"""

from typing import Any

# crewai-text.yaml, interaction 0
TEXT_GEMINI_3: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "parts": [
                    {
                        "text": "Hello! How can I help you today?",
                        "thoughtSignature": (
                            "EpAGCo0GAXLI2nw2xvVyzr95+urxcoYOhQMTr9wHqICIX6y/0C2VZcW2R+uewNc0N8SSvWRFsEwhjKJ+"
                            "NUkp37i09ONgypuHQu2gPVIlL1trMAEFbZlaPc0wcwOomXRvo6uOXKfVDSIobfVI+MSkrXQUliBjgJGP"
                            "vHr0H19udYoMcOrLdRSNGAP+TbkthO4htXJ++cLfgjlzBEHwVC+cKtztTG1nYbNWCyIvo6EG6RIB3+wG"
                            "m1X1ur8XQT7uPevTL7sAwJE9/3WjM5fLrHMM+lOju5CKdE8PsvXbPcBbILleTHH52PvppeFOLjU7B0f4"
                            "K2MDx9qcbNCk0xvdEbXCSHuZKKZC+LTvP4d8UJjH/Ri15HFcPNdvkxfauBTJcB6pONfVb0OcK3aBC7Tb"
                            "WGYaIb/fXvOUbGQbsMWz/gLtYXJ04KUPoV4V5h2Iyyu/3UCw6JsZFCvGX7dUojVtEQPEdFC4RgZ4o0EC"
                            "2tZxj77HiTqgWNO7J5u9CWlCSPsDJ8ASCFpOgRFB0k152CKcdRbVrs/UBbF4Iwy9CDxFERppt+cgKI04"
                            "5tLZKG3btCces0KNKdHqxFM/vOWF34e22V0ilnftafIlWAV9+Ysxwxr2VrSFpeBnFIu+dW4V6WWSOnMv"
                            "ruPGvwP+Prxhyf9dkb/FjEwvg9MImxUk/UC12biBQI8ScDuTE8/lRFV+OG2yPVrBfgEiu+Bkw24yWNSd"
                            "v/Qecvget85KAtB/YKwEvjmaHsiqBaVBH/QMOZg/H8TaZEf0U2Jz8eBmjXawgkTItJ4R7E70BSkL0RF9"
                            "Jgic5mD4gcMIScI14Pwa6v/b+cYCmABtE82NhxLQthv5GdvjpbLfRVu59jvtvcPc5wZlSOeha31vGjT6"
                            "1UCv41D2oem2eOqAGplTo5AdpAdYzQLu595g3t62W4wnA5NFG3HQieL2TyaUX7nMmYEdonjrZimLVSQX"
                            "EbX+rsXdizVU/Lhzw7RGWmT7IeuulECz0y/n8s7kBZs/HBRJB81vci1W6lpusjw4N/ndD1DEMOGsI21J"
                            "Pt1qQDSK7w=="
                        ),
                    },
                ],
                "role": "model",
            },
            "finishReason": "STOP",
            "index": 0,
        },
    ],
    "usageMetadata": {
        "promptTokenCount": 3,
        "candidatesTokenCount": 9,
        "totalTokenCount": 216,
        "promptTokensDetails": [
            {
                "modality": "TEXT",
                "tokenCount": 3,
            },
        ],
        "thoughtsTokenCount": 204,
    },
    "modelVersion": "gemini-3-pro-preview",
    "responseId": "kTgtafe4Fabn_uMPzdzJkAM",
}

# crewai-tool-text-structured.yaml, interaction 0
THOUGHT_THEN_CALL: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "parts": [
                    {
                        "text": (
                            "Okay, here's my thought process on tackling this simple addition problem:\n\n**Cal"
                            "culating 15 + 27**\n\nRight, so I need to calculate 15 plus 27. It's a straightfor"
                            "ward arithmetic operation, and I know I have a dedicated tool for that – the `ad"
                            "d_numbers` function. No need to reinvent the wheel, I should use the appropriate"
                            " tool in my toolbox.\n\nTo use the tool effectively, I need to provide the correct"
                            " inputs. In this case, I'll set `a` equal to 15, and `b` equal to 27. That shoul"
                            "d be a piece of cake for the function. Now I just need to call it!\n"
                        ),
                        "thought": True,
                    },
                    {
                        "functionCall": {
                            "name": "add_numbers",
                            "args": {
                                "a": 15,
                                "b": 27,
                            },
                        },
                        "thoughtSignature": (
                            "CqwBAQw51sfkbjIDS7wS47oc/Bej+AYsUu5Cs+BC2Ae5NMasRmWa/u5Ct426qkpkIpgzGSNjwwfitf1g"
                            "K93Abse9EGj5m1swXmPU2XSkqhMYMEXZGH1mW2U2XH8zaXHRIAx2aI0O8VbJ3sL8h1lJgbVCkvLa2RyW"
                            "wY6E8FRPhQOHtrOQEQtfAUtHdJz928j6UEgS818X/7hEwuWsQhIho0frtziX30UlI7yXOeBBWw=="
                        ),
                    },
                ],
                "role": "model",
            },
            "finishReason": "STOP",
            "index": 0,
            "finishMessage": "Model generated function call(s).",
        },
    ],
    "usageMetadata": {
        "promptTokenCount": 104,
        "candidatesTokenCount": 22,
        "totalTokenCount": 173,
        "promptTokensDetails": [
            {
                "modality": "TEXT",
                "tokenCount": 104,
            },
        ],
        "thoughtsTokenCount": 47,
        "serviceTier": "standard",
    },
    "modelVersion": "gemini-2.5-flash",
    "responseId": "MpgPapmwO_vN-sAPvrWJmA0",
}

# crewai-tool-text-structured.yaml, interaction 1: the answer once the result of THOUGHT_THEN_CALL came back.
FINAL_ANSWER: dict[str, Any] = {
    "candidates": [
        {
            "content": {"parts": [{"text": "The sum of 15 and 27 is 42."}], "role": "model"},
            "finishReason": "STOP",
            "index": 0,
        }
    ],
    "usageMetadata": {
        "promptTokenCount": 142,
        "candidatesTokenCount": 15,
        "totalTokenCount": 157,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 142}],
        "serviceTier": "standard",
    },
    "modelVersion": "gemini-2.5-flash",
    "responseId": "NZgPasTKBf3F-sAP4Lu48Ak",
}

# crewai-tool-text-structured.yaml, interaction 2
STRUCTURED: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "parts": [
                    {
                        "text": (
                            "**Analyzing the User's Statement**\n\nOkay, so the user has given me the statement"
                            ': "The sum of 15 and 27 is 42." My task is to break this down into a structured '
                            "JSON object according to the `CalculationResult` schema I'm working with. This i"
                            "s straightforward; let's extract the key pieces:\n\nFirst, the **operation**: The "
                            'word "sum" is a clear indicator that we\'re dealing with addition. No ambiguity t'
                            'here.\n\nNext, the **result**: The statement explicitly tells us that the result "'
                            "is 42\". That's a direct, easily extracted value.\n\nFinally, the **explanation**: "
                            'I can use the entire original statement, "The sum of 15 and 27 is 42.", as the e'
                            "xplanation. It's concise and perfectly encapsulates the context of the calculati"
                            "on.\n"
                        ),
                        "thought": True,
                    },
                    {
                        "text": '{"operation":"addition","result":42,"explanation":"The sum of 15 and 27 is 42."}',
                    },
                ],
                "role": "model",
            },
            "finishReason": "STOP",
            "index": 0,
        },
    ],
    "usageMetadata": {
        "promptTokenCount": 321,
        "candidatesTokenCount": 28,
        "totalTokenCount": 480,
        "promptTokensDetails": [
            {
                "modality": "TEXT",
                "tokenCount": 321,
            },
        ],
        "thoughtsTokenCount": 131,
        "serviceTier": "standard",
    },
    "modelVersion": "gemini-2.5-flash",
    "responseId": "NZgPasDuKf2VjMcPwc6D4Ak",
}

# pydantic-ai-max-tokens.yaml, interaction 0
MAX_TOKENS: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "parts": [
                    {
                        "text": "The capital of France is",
                    },
                ],
                "role": "model",
            },
            "finishReason": "MAX_TOKENS",
            "index": 0,
        },
    ],
    "modelVersion": "gemini-2.5-flash",
    "responseId": "R5MoavWNNp_8qtsP2fWD2A0",
    "usageMetadata": {
        "candidatesTokenCount": 5,
        "promptTokenCount": 15,
        "promptTokensDetails": [
            {
                "modality": "TEXT",
                "tokenCount": 15,
            },
        ],
        "serviceTier": "standard",
        "totalTokenCount": 20,
    },
}

# pydantic-ai-tool-without-args.yaml, interaction 0
CALL_WITHOUT_ARGS: dict[str, Any] = {
    "candidates": [
        {
            "avgLogprobs": 2.5814981199800968e-05,
            "content": {
                "parts": [
                    {
                        "functionCall": {
                            "args": {},
                            "name": "bar",
                        },
                    },
                ],
                "role": "model",
            },
            "finishReason": "STOP",
        },
    ],
    "modelVersion": "gemini-2.0-flash",
    "responseId": "LFteaOOfMaPG1PIPi5qVEA",
    "usageMetadata": {
        "candidatesTokenCount": 1,
        "candidatesTokensDetails": [
            {
                "modality": "TEXT",
                "tokenCount": 1,
            },
        ],
        "promptTokenCount": 21,
        "promptTokensDetails": [
            {
                "modality": "TEXT",
                "tokenCount": 21,
            },
        ],
        "totalTokenCount": 22,
    },
}

# crewai-stream-parallel-tools.yaml, interaction 0
PARALLEL_CALLS: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "parts": [
                    {
                        "functionCall": {
                            "name": "get_current_temperature",
                            "args": {
                                "city": "Paris",
                            },
                        },
                    },
                    {
                        "functionCall": {
                            "name": "get_current_temperature",
                            "args": {
                                "city": "London",
                            },
                        },
                    },
                ],
                "role": "model",
            },
            "finishReason": "STOP",
        },
    ],
    "usageMetadata": {
        "promptTokenCount": 37,
        "candidatesTokenCount": 14,
        "totalTokenCount": 51,
        "promptTokensDetails": [
            {
                "modality": "TEXT",
                "tokenCount": 37,
            },
        ],
        "candidatesTokensDetails": [
            {
                "modality": "TEXT",
                "tokenCount": 14,
            },
        ],
    },
    "modelVersion": "gemini-2.0-flash",
    "responseId": "h99baZTLOoSShMIPgYaAgQw",
}

# crewai-error-400-stream-bad-key.yaml, interaction 0
ERROR_400_BAD_KEY: dict[str, Any] = {
    "error": {
        "code": 400,
        "message": "API key not valid. Please pass a valid API key.",
        "status": "INVALID_ARGUMENT",
        "details": [
            {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "API_KEY_INVALID",
                "domain": "googleapis.com",
                "metadata": {
                    "service": "generativelanguage.googleapis.com",
                },
            },
            {
                "@type": "type.googleapis.com/google.rpc.LocalizedMessage",
                "locale": "en-US",
                "message": "API key not valid. Please pass a valid API key.",
            },
        ],
    },
}

# crewai-text-then-429.yaml, interaction 1
ERROR_429: dict[str, Any] = {
    "error": {
        "code": 429,
        "message": (
            "Resource exhausted. Please try again later. Please refer to https://cloud.google"
            ".com/vertex-ai/generative-ai/docs/error-code-429 for more details."
        ),
        "status": "RESOURCE_EXHAUSTED",
    },
}

# A 429 for a spent daily free-tier quota, with its QuotaFailure and RetryInfo details.
ERROR_429_QUOTA: dict[str, Any] = {
    "error": {
        "code": 429,
        "message": (
            "You exceeded your current quota, please check your plan and billing details. For more "
            "information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor "
            "your current usage, head to: https://ai.dev/rate-limit. \n* Quota exceeded for metric: "
            "generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 20, model: "
            "gemini-3.8-flash\nPlease retry in 45.350673458s."
        ),
        "status": "RESOURCE_EXHAUSTED",
        "details": [
            {
                "@type": "type.googleapis.com/google.rpc.Help",
                "links": [
                    {
                        "description": "Learn more about Gemini API quotas",
                        "url": "https://ai.google.dev/gemini-api/docs/rate-limits",
                    }
                ],
            },
            {
                "@type": "type.googleapis.com/google.rpc.QuotaFailure",
                "violations": [
                    {
                        "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                        "quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
                        "quotaDimensions": {"location": "global", "model": "gemini-3.8-flash"},
                        "quotaValue": "20",
                    }
                ],
            },
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "45s"},
        ],
    }
}

ERROR_400_NO_TOOLS: dict[str, Any] = {
    "error": {
        "code": 400,
        "message": "Function calling is not enabled for models/gemma-3-27b-it",
        "status": "INVALID_ARGUMENT",
    }
}

ERROR_400_NO_JSON_MODE: dict[str, Any] = {
    "error": {
        "code": 400,
        "message": "JSON mode is not enabled for models/gemma-3-27b-it",
        "status": "INVALID_ARGUMENT",
    }
}

ERROR_400_LOCATION: dict[str, Any] = {
    "error": {
        "code": 400,
        "message": "User location is not supported for the API use.",
        "status": "FAILED_PRECONDITION",
    }
}

ERROR_403_LEAKED_KEY: dict[str, Any] = {
    "error": {
        "code": 403,
        "message": "Your API key was reported as leaked. Please use another API key.",
        "status": "PERMISSION_DENIED",
    }
}

ERROR_404_MODEL: dict[str, Any] = {
    "error": {
        "code": 404,
        "message": (
            "models/gemini-1.5-flash is not found for API version v1beta, or is not supported for "
            "generateContent. Call ModelService.ListModels to see the list of available models and their "
            "supported methods."
        ),
        "status": "NOT_FOUND",
    }
}

ERROR_500: dict[str, Any] = {
    "error": {
        "code": 500,
        "message": (
            "An internal error has occurred. Please retry or report in "
            "https://developers.generativeai.google/guide/troubleshooting"
        ),
        "status": "INTERNAL",
    }
}

ERROR_503: dict[str, Any] = {
    "error": {"code": 503, "message": "The model is overloaded. Please try again later.", "status": "UNAVAILABLE"}
}
