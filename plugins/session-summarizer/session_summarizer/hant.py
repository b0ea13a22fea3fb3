"""Traditional Chinese read as Simplified for the cue patterns: the decision cues list each Chinese marker
once, in Simplified characters, and a Taiwanese or Hong Kong session writes 將/為/採用/確保 for 将/为/采用/确保."""

import re

# Traditional -> Simplified for the characters the cue patterns are written with (and a few words around
# them): enough to read a marker, not a general converter.
_TABLE = str.maketrans(
    "將會來們為於慮鑑確採選擇決薦換從遷無須沒變樣動適優這舉準經許實現後覺讓與個應該還問題護單簡潔統設計"
    "對於種樣體說請時間開關點擊錯誤裡邊麼顯這預設數據庫處擬據標準檔務況",
    "将会来们为于虑鉴确采选择决荐换从迁无须没变样动适优这举准经许实现后觉让与个应该还问题护单简洁统设计"
    "对于种样体说请时间开关点击错误里边么显这预设数据库处拟据标准档务况")
_KANA_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7af]")
_HANT = re.compile("[" + "將會來們為於慮鑑確採選擇決薦換從遷無須沒變樣動適優這舉準經許實現後覺讓與個應該還問題護" + "]")


def simplified(text: str) -> str:
    """`text` with its Traditional characters in Simplified, when it reads as Chinese (no kana, no hangul:
    Japanese writes 選択/確認 with the same characters, and they must stay as they are). Else `text`."""
    if text.isascii() or not _HANT.search(text) or _KANA_HANGUL.search(text):
        return text
    return text.translate(_TABLE)
